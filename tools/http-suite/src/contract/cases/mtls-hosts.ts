import type { OutgoingHttpHeaders } from 'node:http';
import { Agent } from 'node:https';
import type { Duplex } from 'node:stream';
import { memoryStore, type PlantServiceError, type PlantServiceOptions } from '@plantstore/core';
import { afterAll } from 'vitest';
import { type Outgoing, type Reply, send } from '../../client/send';
import type { ContractMtls, ContractSetup } from '../../contract-setup';
import { contractJwtBearer } from '../../contract-auth';
import type { ContractHost } from '../../hosts/target';
import { testCertificates, type TestCertificate } from '../../tls/test-certificates';
import { contractTls } from '../../tls/tls-server';
import { type ContractSuite, SCOPE } from '../suite';

/** Which client certificate a request presents over TLS; `none` presents none. */
export type Presented = 'client' | 'other' | 'none';

/** A host of the mTLS cases, started on first use, and what its route refused. */
export interface MtlsHost {
  readonly rejected: readonly PlantServiceError[];
  /** `POST {host}/plants` of a fern with the token and these extra headers and request options. */
  readonly post: (token: string, extra?: Outgoing) => Promise<Reply>;
}

/** What the mTLS cases share: tokens and hosts, each made on first use. */
export interface MtlsHosts {
  /** A token bound to the `client` certificate (`cnf["x5t#S256"]`), or to `other`, or to none. */
  readonly token: (boundTo: 'client' | 'other' | 'unbound') => Promise<string>;
  /** The DER of a test certificate. */
  readonly der: (name: 'client' | 'other') => Promise<Uint8Array>;
  /** Request options presenting a certificate, or none, over TLS. */
  readonly presenting: (name: Presented) => Promise<Outgoing>;
  /** A keep-alive agent of one connection at a time presenting a certificate; `destroy()` it. */
  readonly keepAlive: (name: 'client' | 'other') => Promise<CountingAgent>;
  /** HTTPS, `mtls: true`: the TLS connection is the certificate's only source. */
  readonly bound: MtlsHost;
  /** HTTPS, `mtls: { required: true }`. */
  readonly required: MtlsHost;
  /** Plain HTTP, `mtls: true` and `clientCertificateHeader: 'client-cert'`: the header is the source. */
  readonly header: MtlsHost;
}

/**
 * Registers the teardown of the mTLS cases' hosts, each started on the first case that uses it so a
 * host whose cases are all skipped (no TLS on Bun, Deno, a remote host) is never started.
 *
 * @param suite - the target's suite: its target, issuer and auth
 * @returns the hosts and tokens of the cases
 */
export function useMtlsHosts(suite: ContractSuite): MtlsHosts {
  const started: Promise<ContractHost>[] = [];
  let nextId = 7000;

  const host = (mtls: ContractMtls, extra: 'tls' | Partial<PlantServiceOptions>): MtlsHost => {
    const rejected: PlantServiceError[] = [];
    let running: Promise<ContractHost> | undefined;
    const start = async (): Promise<ContractHost> => {
      const setup: ContractSetup = {
        auth: { ...suite.setup().auth, mtls },
        ...(extra === 'tls' ? { tls: await contractTls() } : {}),
      };
      return suite.target.start(
        {
          store: memoryStore(),
          auth: contractJwtBearer(setup.auth),
          onRejected: (error) => void rejected.push(error),
          ...(extra === 'tls' ? {} : extra),
        },
        setup,
      );
    };
    const post = async (token: string, extra_: Outgoing = {}): Promise<Reply> => {
      if (running === undefined) started.push((running = start()));
      const { url } = await running;
      if (extra === 'tls' && !url.startsWith('https:')) {
        throw new Error(
          `The target served ${url} without TLS: declare decides: { tls: reason } for it.`,
        );
      }
      return send(url, {
        ...extra_,
        body: `{"id":${nextId++},"name":"Fern"}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...extra_.headers,
        },
      });
    };
    return { rejected, post };
  };

  afterAll(async () => {
    const hosts = await Promise.allSettled(started);
    const running = hosts.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []));
    await Promise.all(running.map((one) => one.close()));
  });

  const certificate = async (name: 'client' | 'other'): Promise<TestCertificate> =>
    (await testCertificates())[name];
  const presenting = async (name: Presented): Promise<Outgoing> => {
    const { ca } = await testCertificates();
    if (name === 'none') return { tls: { ca: ca.certPem } };
    const { certPem, keyPem } = await certificate(name);
    return { tls: { ca: ca.certPem, cert: certPem, key: keyPem } };
  };
  return {
    token: async (boundTo) =>
      suite.issuer.sign(
        { scope: SCOPE },
        boundTo === 'unbound' ? {} : { certificate: (await certificate(boundTo)).der },
      ),
    der: async (name) => (await certificate(name)).der,
    presenting,
    keepAlive: async (name) => {
      const { tls } = await presenting(name);
      return new CountingAgent({ ...tls, keepAlive: true, maxSockets: 1 });
    },
    bound: host(true, 'tls'),
    required: host({ required: true }, 'tls'),
    header: host(true, { clientCertificateHeader: 'client-cert' }),
  };
}

/**
 * The RFC 9440 `Client-Cert` header a trusted proxy sends: the DER as a structured-field byte sequence.
 *
 * @param der - the certificate
 * @returns the header
 */
export function clientCertHeader(der: Uint8Array): OutgoingHttpHeaders {
  return { 'client-cert': `:${Buffer.from(der).toString('base64')}:` };
}

/** An HTTPS agent that counts the connections it opens, to tell a reused connection from a new one. */
export class CountingAgent extends Agent {
  connections = 0;

  override createConnection(
    ...args: Parameters<Agent['createConnection']>
  ): Duplex | null | undefined {
    this.connections += 1;
    return super.createConnection(...args);
  }
}
