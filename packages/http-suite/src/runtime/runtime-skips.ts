import { rawCaseSkips } from '../contract/cases/exchange-host';
import { tlsCaseSkips } from '../contract/cases/mtls';
import type { RuntimeName } from './runtime-binary';

/**
 * The contract's cases that a runtime's own HTTP server decides before the route, for
 * `describeHttpContract`'s `skip`: the raw-socket cases (its header limit, when it reads and closes a
 * connection), and the mutual-TLS cases (the host program serves plain HTTP; a trusted `Client-Cert`
 * header is how its route learns a certificate, and those cases run).
 *
 * @param runtime - `'bun'` or `'deno'`
 * @returns the skips, by test name, each with its reason
 */
export function runtimeSkips(runtime: RuntimeName): Readonly<Record<string, string>> {
  const name = runtime === 'bun' ? 'Bun' : 'Deno';
  return {
    ...rawCaseSkips(
      `${name}'s server, not the route, decides how such a connection is read and closed`,
    ),
    ...tlsCaseSkips(
      `the contract host on ${name} serves plain HTTP, and its fetch entry has no connection to read a certificate from`,
    ),
  };
}
