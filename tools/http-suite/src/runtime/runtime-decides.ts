import type { HostCoverage } from '../contract/coverage';
import type { RuntimeName } from './runtime-binary';

/** The cases a host decides before the route, by tag or case id, each with the reason. */
type Decides = NonNullable<HostCoverage['decides']>;

/**
 * The contract's cases that a runtime's own HTTP server decides before the route, for
 * `describeHttpContract`'s `decides`: the raw-socket cases (its header limit, when it reads and
 * closes a connection), and the mutual-TLS cases (the host program serves plain HTTP; a trusted
 * `Client-Cert` header is how its route learns a certificate, and those cases run).
 *
 * @param runtime - `'bun'` or `'deno'`
 * @returns the decisions, by tag
 * @example
 * ```ts
 * describeHttpContract('fetch entry on Bun.serve', target, { decides: runtimeDecides('bun') });
 * ```
 */
export function runtimeDecides(runtime: RuntimeName): Decides {
  const name = runtime === 'bun' ? 'Bun' : 'Deno';
  return {
    'raw-socket': `${name}'s server, not the route, decides how such a connection is read and closed`,
    tls: `the contract host on ${name} serves plain HTTP, and its fetch entry has no connection to read a certificate from`,
  };
}

/**
 * The contract's cases that cannot apply to a Worker on workerd (through miniflare), for
 * `describeHttpContract`'s `decides`: workerd owns the connection, so it drops the route's
 * `Connection: close` and decides itself how a connection is read and closed (the raw-socket cases
 * but the one of 1000 filler headers, which the route decides); the Worker serves plain HTTP with no
 * connection to read a client certificate from; and without `nodejs_compat` there is no
 * `node:crypto` to parse the certificate of a trusted `Client-Cert` header (the service refuses
 * `clientCertificateHeader` at start-up there).
 *
 * @param options - whether the Worker runs with the `nodejs_compat` flag
 * @returns the decisions, by tag
 */
export function workerdDecides(options: { readonly nodejsCompat: boolean }): Decides {
  return {
    closes: "workerd, not the route, owns the connection and drops the route's Connection field",
    tls: 'the Worker serves plain HTTP, and its fetch entry has no connection to read a certificate from',
    ...(options.nodejsCompat
      ? {}
      : {
          'client-cert-header':
            "without nodejs_compat there is no node:crypto to parse the header's X.509 certificate",
        }),
  };
}
