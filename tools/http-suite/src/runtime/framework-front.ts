import { type Reply, send } from '../client/send';
import type { RunningExample } from './example-suite';

/**
 * Creates a plant at `{origin}{base}/plants` with a token of the example's issuer, as a client
 * would: what a framework's front decides shows in the answer (`send` can repeat a header, which
 * fetch cannot).
 *
 * @param example - the running example
 * @param base - where the route is mounted: `/api`, `/edge/api`
 * @param id - the plant's id, unique within the run
 * @param contentType - the `Content-Type` field, or its repeats
 * @returns the answer
 * @example
 * const reply = await createPlant(example(), '/api', 21, ['application/json', 'text/plain']);
 */
export function createPlant(
  example: RunningExample,
  base: string,
  id: number,
  contentType: string | readonly string[] = 'application/json',
): Promise<Reply> {
  return send(`${example.origin}${base}`, {
    headers: { authorization: `Bearer ${example.token}`, 'content-type': [contentType].flat() },
    body: `{"id": ${id}, "name": "Front ${id}"}`,
  });
}
