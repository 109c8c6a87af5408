import { closingExchangeSkips, exchangeSkips, rawCaseSkips } from '../contract/cases/exchange-host';
import { certificateHeaderSkips, tlsCaseSkips } from '../contract/cases/mtls';
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

/**
 * The contract's cases that cannot apply to a Worker on workerd (through miniflare), for
 * `describeHttpContract`'s `skip`: workerd owns the connection, so it drops the route's
 * `Connection: close` and decides itself how a connection is read and closed (the raw-socket cases
 * but the one of 1000 filler headers, which the route decides); the Worker serves plain HTTP with no
 * connection to read a client certificate from; and without `nodejs_compat` there is no
 * `node:crypto` to parse the certificate of a trusted `Client-Cert` header (the service refuses
 * `clientCertificateHeader` at start-up there).
 *
 * @param options - whether the Worker runs with the `nodejs_compat` flag
 * @returns the skips, by test name, each with its reason
 */
export function workerdSkips(options: {
  readonly nodejsCompat: boolean;
}): Readonly<Record<string, string>> {
  const owned =
    "workerd, not the route, owns the connection and drops the route's Connection field";
  return {
    ...closingExchangeSkips(owned),
    ...exchangeSkips(['huge', 'huge 415', 'linger', 'metadata body'], owned),
    ...tlsCaseSkips(
      'the Worker serves plain HTTP, and its fetch entry has no connection to read a certificate from',
    ),
    ...(options.nodejsCompat
      ? {}
      : certificateHeaderSkips(
          "without nodejs_compat there is no node:crypto to parse the header's X.509 certificate",
        )),
  };
}
