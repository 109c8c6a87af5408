import { MissingTokenError } from '@plantstore/core';
import type { TokenIssuer } from '@plantstore/core/testing';
import { expect } from 'vitest';
import type { Reply } from '../../client/send';
import type { ContractTarget } from '../../hosts/target';
import type { CaseRegistrar, RegisterCase } from '../coverage';
import { type DpopHost, useDpopHost } from './dpop-host';
import {
  ALGS,
  answer,
  BEARER,
  DPOP,
  METADATA_URL,
  proofRefused,
  PUBLIC_URL,
  view,
} from './dpop-views';
import { describeMetadata } from './metadata';

/**
 * Registers the DPoP (RFC 9449) and RFC 9728 cases of the contract: a second host of the same target,
 * its route accepting DPoP with server nonces, `publicUrl` `https://api.example.com` and the metadata
 * on. Proofs name the public URL of the path the client sent, mount path included, so a host that
 * hands the core a path stripped of its mount point fails here; the metadata is asked for at the
 * host's root.
 *
 * @param target - how to start the entry
 * @param issuerOf - the suite's token issuer, there once its `beforeAll` has run
 * @param cases - registers each case and the group, as the run's coverage says
 */
export function describeDpopContract(
  target: ContractTarget,
  issuerOf: () => TokenIssuer,
  cases: Pick<CaseRegistrar, 'test' | 'group'>,
): void {
  const { test, group } = cases;
  const tags = ['dpop', 'metadata', 'mounting', 'raw-socket', 'closes'] as const;
  group('DPoP (RFC 9449) and RFC 9728 metadata', tags, () => {
    const dpop = useDpopHost(target, issuerOf);
    describeDpopCases(dpop, test);
    describeMetadata(dpop, test);
  });
}

/** The DPoP cases: challenges, the nonce, proofs that hold and proofs that do not. */
function describeDpopCases(dpop: DpopHost, test: RegisterCase): void {
  /** Expects `reply` to be the 401 invalid_dpop_proof saying `description`, refused as `code`. */
  const expectProofRefused = (reply: Reply, description: string, code: string): void => {
    expect(view(reply)).toStrictEqual(proofRefused(description));
    expect(dpop.rejected.at(-1)?.code).toBe(code);
  };
  test(
    'dpop.challenge',
    ['dpop', 'metadata', 'mounting'],
    'offers Bearer and DPoP, each naming the metadata, when no credentials are sent',
    async () => {
      expect(view(await dpop.post({}))).toStrictEqual(
        answer(
          401,
          { 'www-authenticate': `${BEARER}, ${DPOP}` },
          { error: 401, message: new MissingTokenError().message },
        ),
      );
      expect(dpop.rejected.at(-1)?.code).toBe('token_missing');
    },
  );

  test(
    'dpop.nonce',
    ['dpop'],
    'asks for a nonce with 401 use_dpop_nonce and DPoP-Nonce, and creates the plant on the retry',
    async () => {
      expect(dpop.nonce).toMatch(/^[\w-]+$/u);
      expect(view(dpop.asked)).toStrictEqual(
        answer(
          401,
          {
            'www-authenticate': `${BEARER}, DPoP realm="plantstore", error="use_dpop_nonce", error_description="The resource server requires a nonce in the DPoP proof", algs="${ALGS}", resource_metadata="${METADATA_URL}"`,
            'dpop-nonce': dpop.nonce,
          },
          { error: 401, message: 'The resource server requires a nonce in the DPoP proof.' },
        ),
      );
      const plantId = dpop.id();
      const retry = await dpop.post(await dpop.proven(await dpop.bound()), plantId);
      expect(view(retry)).toStrictEqual(answer(200, {}, { name: 'Fern' }));
      expect(dpop.store.get(BigInt(plantId))?.name).toBe('Fern');
    },
  );

  test(
    'dpop.public-url',
    ['dpop', 'mounting'],
    'creates a plant with a bound token and a proof for the public URL of the path sent',
    async () => {
      const plantId = dpop.id();
      expect(view(await dpop.post(await dpop.proven(await dpop.bound()), plantId))).toStrictEqual(
        answer(200, {}, { name: 'Fern' }),
      );
      expect(dpop.store.get(BigInt(plantId))).toMatchObject({ id: BigInt(plantId), name: 'Fern' });
    },
  );

  test('dpop.replayed', ['dpop'], 'refuses a replayed proof 401 invalid_dpop_proof', async () => {
    const headers = await dpop.proven(await dpop.bound());
    expect((await dpop.post(headers)).status).toBe(200);
    expectProofRefused(
      await dpop.post(headers),
      'The DPoP proof was used before',
      'dpop_proof_replayed',
    );
  });

  test('dpop.other-host', ['dpop'], 'refuses a proof whose htu names another host', async () => {
    const headers = await dpop.proven(await dpop.bound(), {
      url: `https://other.example.com${dpop.mountPath}/plants`,
    });
    expectProofRefused(
      await dpop.post(headers),
      'The DPoP proof htu is not the request URL',
      'dpop_proof_url_mismatch',
    );
  });

  test(
    'dpop.forwarded-host',
    ['dpop', 'mounting'],
    'refuses a proof whose htu names the Host and X-Forwarded-Host sent with it',
    async () => {
      const headers = await dpop.proven(await dpop.bound(), {
        url: `https://evil.example${dpop.mountPath}/plants`,
      });
      const reply = await dpop.post({
        ...headers,
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      });
      expectProofRefused(
        reply,
        'The DPoP proof htu is not the request URL',
        'dpop_proof_url_mismatch',
      );
    },
  );

  test(
    'dpop.mount-path',
    ['dpop', 'mounting'],
    'refuses a proof whose htu leaves out the mount path (or adds one)',
    async () => {
      const path = dpop.mountPath === '' ? '/api/plants' : '/plants';
      const headers = await dpop.proven(await dpop.bound(), { url: `${PUBLIC_URL}${path}` });
      expectProofRefused(
        await dpop.post(headers),
        'The DPoP proof htu is not the request URL',
        'dpop_proof_url_mismatch',
      );
    },
  );

  test(
    'dpop.other-ath',
    ['dpop'],
    'refuses a proof whose ath is the hash of another token',
    async () => {
      const headers = await dpop.proven(await dpop.bound(), { token: await dpop.bound() });
      expectProofRefused(
        await dpop.post(headers),
        'The DPoP proof ath is not the hash of this token',
        'dpop_proof_token_hash_mismatch',
      );
    },
  );

  test(
    'dpop.other-key',
    ['dpop'],
    'refuses a proof by another key than the cnf.jkt of the token',
    async () => {
      const headers = await dpop.proven(await dpop.bound(), {}, dpop.other);
      expectProofRefused(
        await dpop.post(headers),
        'The DPoP proof key is not the key the token is bound to',
        'dpop_proof_key_mismatch',
      );
    },
  );

  test(
    'dpop.bound-as-bearer',
    ['dpop'],
    'refuses a bound token sent as Bearer 401 invalid_token, offering both schemes',
    async () => {
      const description = 'The token is bound to a key; send it with the DPoP scheme and a proof';
      expect(
        view(await dpop.post({ authorization: `Bearer ${await dpop.bound()}` })),
      ).toStrictEqual(
        answer(
          401,
          {
            'www-authenticate': `Bearer realm="plantstore", error="invalid_token", error_description="${description}", resource_metadata="${METADATA_URL}", ${DPOP}`,
          },
          { error: 401, message: `The bearer token is not valid: ${description}` },
        ),
      );
      expect(dpop.rejected.at(-1)?.code).toBe('token_dpop_bound');
    },
  );
}
