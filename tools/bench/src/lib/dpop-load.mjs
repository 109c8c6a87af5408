// What the DPoP setup is loaded with: a DPoP-bound token and, for every request, a proof of its own
// (a fresh jti), all signed before the round and outside its timing, as clients sign theirs.
import { createDpopClient } from '@plantstore/core/testing';
import { PUBLIC_URL, signToken } from '../config.mjs';

/**
 * A DPoP client with its bound token.
 *
 * @returns {Promise<{ token: string, proofs(count: number): Promise<string[]> }>}
 */
export async function dpopClient() {
  const client = await createDpopClient('ES256');
  const token = await signToken({ jkt: client.jkt });
  const url = `${PUBLIC_URL}/plants`;
  return {
    token,
    async proofs(count) {
      const list = [];
      for (let i = 0; i < count; i += 1) list.push(await client.proof({ url, token }));
      return list;
    },
  };
}

/**
 * The headers of each request of one round, from proofs signed now: enough for `seconds` at `rate`
 * requests a second. Past the last proof it sends the last one again, which the server refuses as a
 * replay (401), so a round that outruns its proofs shows as non-2xx answers, never as a quiet pass.
 *
 * @param {{ token: string, proofs(count: number): Promise<string[]> }} client
 * @param {number} seconds
 * @param {number} rate
 * @returns {Promise<() => Record<string, string>>}
 */
export async function dpopHeaders(client, seconds, rate) {
  const proofs = await client.proofs(Math.ceil(seconds * rate));
  let next = 0;
  return () => ({
    authorization: `DPoP ${client.token}`,
    dpop: proofs[Math.min(next++, proofs.length - 1)],
    'content-type': 'application/json',
  });
}
