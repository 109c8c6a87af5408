import { createHash, randomUUID } from 'node:crypto';
import type { DpopClient, DpopProofTarget } from '@plantstore/core/testing';
import { SignJWT } from 'jose';

/** What signs a client's DPoP proofs: the testing kit's `DpopClient` is one. */
export type DpopSigner = Pick<DpopClient, 'jkt' | 'publicJwk' | 'proof' | 'headers'>;

/**
 * The same Ed25519 key as an `EdDSA` client of the testing kit, signing its proofs with the fully
 * specified `alg` `Ed25519` (RFC 9864), which oidc-provider and the route both list. The kit signs
 * `EdDSA` only, so the proof is made here with jose, with the claims the kit would put in it.
 *
 * @param client - a kit client made with `createDpopClient('EdDSA')`
 * @returns a signer of `alg: Ed25519` proofs with that key
 * @example
 * ```ts
 * const signer = ed25519Signer(await createDpopClient('EdDSA'));
 * await signer.proof({ method: 'POST', url: tokenEndpoint });
 * ```
 */
export function ed25519Signer(client: DpopClient): DpopSigner {
  if (client.algorithm !== 'EdDSA') throw new Error('An Ed25519 key signs Ed25519 proofs');
  const signer: DpopSigner = {
    jkt: client.jkt,
    publicJwk: client.publicJwk,
    proof(target: DpopProofTarget) {
      const claims: Record<string, unknown> = {
        jti: randomUUID(),
        htm: target.method ?? 'POST',
        htu: target.url.replace(/[?#].*$/su, ''),
        iat: Math.floor(Date.now() / 1000),
      };
      if (target.token !== undefined) {
        claims['ath'] = createHash('sha256').update(target.token).digest('base64url');
      }
      if (target.nonce !== undefined) claims['nonce'] = target.nonce;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'Ed25519', typ: 'dpop+jwt', jwk: client.publicJwk })
        .sign(client.privateKey);
    },
    async headers(token, target) {
      return { authorization: `DPoP ${token}`, dpop: await signer.proof({ ...target, token }) };
    },
  };
  return signer;
}

/**
 * A signer that keeps every proof it signs, so a test can replay the one a client sent to the
 * provider's token endpoint.
 *
 * @param signer - the signer
 * @param proofs - where the proofs are kept, in order
 * @returns the same signer, recording
 * @example
 * ```ts
 * const sent: string[] = [];
 * await clientCredentials(issuer, client, { scope }, { dpop: recording(dpopClient, sent) });
 * ```
 */
export function recording(signer: DpopSigner, proofs: string[]): DpopSigner {
  return {
    ...signer,
    async proof(target, options) {
      const proof = await signer.proof(target, options);
      proofs.push(proof);
      return proof;
    },
  };
}
