/**
 * Reads the address of a server a test suite needs (a database, a cache) from the environment.
 * Without it the suite is skipped with a printed reason, unless `PLANTSTORE_REQUIRE_SERVICES=1` (as
 * in CI): then a failing test is registered instead, so a missing server never passes as a skip.
 *
 * @param runner - `{ it }` of vitest (or jest, or node:test)
 * @param variable - the environment variable, such as `DATABASE_URL`
 * @param suite - the suite's name, for the messages
 * @param example - an example value, for the skip message
 * @returns the address, or `undefined` when the suite should be skipped
 * @example
 * ```ts
 * const url = serviceUrl({ it }, 'REDIS_URL', 'redis store', 'redis://127.0.0.1:6379');
 * describe.skipIf(url === undefined)('redis store', () => { ... });
 * ```
 */
export function serviceUrl(
  runner: { readonly it: (name: string, body: () => void) => unknown },
  variable: string,
  suite: string,
  example: string,
): string | undefined {
  const url = process.env[variable];
  if (url !== undefined && url !== '') return url;
  if (process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1') {
    runner.it(`has ${variable} set, as PLANTSTORE_REQUIRE_SERVICES=1 requires for ${suite}`, () => {
      throw new Error(
        `${variable} is not set, and PLANTSTORE_REQUIRE_SERVICES=1 forbids skipping.`,
      );
    });
  } else {
    console.warn(`Skipping ${suite}: ${variable} is not set (for example ${variable}=${example}).`);
  }
  return undefined;
}
