import type { OutgoingHttpHeaders } from 'node:http';
import { memoryStore, type MemoryStore, type PlantServiceError } from '@plantstore/core';
import {
  createDpopClient,
  type DpopClient,
  type DpopProofTarget,
  type TokenIssuer,
} from '@plantstore/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { type Reply, send } from '../../client/send';
import type { ContractAuth } from '../../contract-setup';
import { contractJwtBearer } from '../../contract-auth';
import type { ContractHost, ContractTarget } from '../../hosts/target';
import type { Writable } from '../suite';
import { PUBLIC_URL, RESOURCE, RESOURCE_NAME, SCOPE } from './dpop-views';

/** The second host of a target, its route accepting DPoP with server nonces and serving metadata. */
export interface DpopHost {
  readonly issuer: TokenIssuer;
  readonly store: MemoryStore;
  /** The key the tokens are bound to, and another. */
  readonly other: DpopClient;
  /** `/api`, `/api/v1`, or `''` at the root. */
  readonly mountPath: string;
  /** The server's nonce, once the first proof was answered 401 `use_dpop_nonce`. */
  readonly nonce: string | undefined;
  /** That first answer. */
  readonly asked: Reply;
  readonly rejected: readonly PlantServiceError[];
  /** A fresh plant id. */
  readonly id: () => number;
  /** A token for the resource, bound to the client's key. */
  readonly bound: () => Promise<string>;
  /** `POST {host}/plants` of a fern with these headers. */
  readonly post: (headers: OutgoingHttpHeaders, plantId?: number) => Promise<Reply>;
  /** `Authorization: DPoP` and a proof for the public URL of the path sent, with the nonce. */
  readonly proven: (
    token: string,
    target?: Partial<DpopProofTarget>,
    by?: DpopClient,
  ) => Promise<OutgoingHttpHeaders>;
  /** A request to the host's root, where the metadata lives. */
  readonly atRoot: (method: string, path: string, body?: string) => Promise<Reply>;
  /** The host's root URL, `http://127.0.0.1:<port>`, for requests only a raw socket can send. */
  readonly origin: () => string;
}

/**
 * Registers the hooks that start the DPoP host of `target`: `publicUrl` `https://api.example.com`,
 * the metadata on, and a first proof sent to learn the server's nonce.
 *
 * @param target - how to start the entry
 * @param issuerOf - the suite's token issuer, there once its `beforeAll` has run
 * @returns the host's handles, filled in by `beforeAll`
 */
export function useDpopHost(target: ContractTarget, issuerOf: () => TokenIssuer): DpopHost {
  let host: ContractHost;
  let client: DpopClient;
  let htu = '';
  const rejected: PlantServiceError[] = [];
  let nextId = 5000;
  // The fields `beforeAll` fills in; the cases read them inside their tests.
  const dpop = { rejected, mountPath: '' } as Partial<DpopHost> as Writable<DpopHost>;

  const bound = (): Promise<string> =>
    dpop.issuer.sign({ aud: RESOURCE, scope: SCOPE }, { boundTo: client });
  const post = (headers: OutgoingHttpHeaders, plantId = nextId++): Promise<Reply> =>
    send(host.url, {
      body: `{"id":${plantId},"name":"Fern"}`,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const proven = async (
    token: string,
    target_: Partial<DpopProofTarget> = {},
    by: DpopClient = client,
  ): Promise<OutgoingHttpHeaders> => ({
    authorization: `DPoP ${token}`,
    dpop: await by.proof({
      url: htu,
      token,
      ...(dpop.nonce === undefined ? {} : { nonce: dpop.nonce }),
      ...target_,
    }),
  });
  const atRoot = (method: string, path: string, body?: string): Promise<Reply> =>
    send(new URL(host.url).origin, {
      method,
      path,
      body,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    const issuer = (dpop.issuer = issuerOf());
    const auth: ContractAuth = {
      jwksUri: issuer.jwksUri,
      issuer: issuer.issuer,
      audience: RESOURCE,
      requiredScopes: [SCOPE],
      // An hour: the nonce asked for here stays good for every case of the run.
      dpop: { nonce: { lifetime: 3600 } },
    };
    dpop.store = memoryStore();
    [client, dpop.other] = await Promise.all([
      createDpopClient('ES256'),
      createDpopClient('EdDSA'),
    ]);
    host = await target.start(
      {
        store: dpop.store,
        auth: contractJwtBearer(auth),
        publicUrl: PUBLIC_URL,
        resourceMetadata: { resourceName: RESOURCE_NAME },
        onRejected: (error) => void rejected.push(error),
      },
      { auth },
    );
    dpop.mountPath = new URL(host.url).pathname.replace(/\/$/u, '');
    htu = `${PUBLIC_URL}${dpop.mountPath}/plants`;
    dpop.asked = await post(await proven(await bound()));
    dpop.nonce = String(dpop.asked.headers['dpop-nonce']);
  });

  afterAll(async () => {
    await host?.close();
  });
  const origin = () => new URL(host.url).origin;
  return Object.assign(dpop, { id: () => nextId++, bound, post, proven, atRoot, origin });
}
