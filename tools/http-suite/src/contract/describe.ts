import { beforeAll, describe } from 'vitest';
import type { ContractTarget } from '../hosts/target';
import { capturedLogger } from './captured-logger';
import { describeAuthRefusals } from './cases/auth';
import { describeBodyRefusals } from './cases/body';
import { describeCreated } from './cases/created';
import { describeDpopContract } from './cases/dpop';
import { describeExchanges } from './cases/exchange-host';
import { describeFailures } from './cases/failures';
import { describeHookContext } from './cases/hook-context';
import { describeSeveralIssuers } from './cases/issuers';
import { describeLimits } from './cases/limits';
import { describeMtlsContract } from './cases/mtls';
import { describePassingOn } from './cases/passing-on';
import { describeTenants } from './cases/tenants';
import { caseRegistrar, type HostCoverage } from './coverage';
import { useContractSuite } from './suite';

/**
 * Registers the HTTP contract of the route (docs/reference/errors.md and the README's route section) with
 * vitest, to run against one entry: the same cases for fetch, node:http, Express 4 and 5, Koa 2 and
 * 3, Fastify 4 and 5, Bun, Deno and Hono. The main host takes the cases by status; a second host the
 * exchanges answered to the letter and the raw-socket requests; another ids per tenant (the
 * `tenant` option, see `describeTenants`); a third DPoP and the RFC 9728
 * metadata (see `describeDpopContract`); others RFC 8705 certificate-bound tokens, over HTTPS with
 * client certificates and through a trusted `Client-Cert` header (see `describeMtlsContract`).
 *
 * @param name - the entry's name
 * @param target - how to start it
 * @param coverage - which cases this run registers (`only`), and which the host decides before
 *   the route (`decides`, by tag or case id, each with the reason); default every case
 * @example
 * ```ts
 * describeHttpContract('Express 5, mounted at /', target);
 * describeHttpContract('Express 5, mounted at a prefix', target, { only: ['mounting'] });
 * ```
 */
export function describeHttpContract(
  name: string,
  target: ContractTarget,
  coverage: HostCoverage = {},
): void {
  describe(`HTTP contract: ${name}`, () => {
    const cases = caseRegistrar(coverage);
    // Nested suites register their cases after this callback returns: check once they all have.
    beforeAll(cases.verify);
    const suite = useContractSuite(quiet(target), cases);
    describeCreated(suite);
    describeBodyRefusals(suite);
    describeAuthRefusals(suite);
    describeLimits(suite);
    describeFailures(suite);
    describeHookContext(suite);
    describeSeveralIssuers(suite);
    describeTenants(suite);
    describePassingOn(suite);
    describeExchanges(suite);
    describeDpopContract(quiet(target), () => suite.issuer, cases);
    describeMtlsContract(suite);
  });
}

/**
 * The target with every host it starts logging into a captured logger, unless a case gives its
 * own: the 5xx a case provokes is the answer it checks, not news for the terminal, and a green run
 * prints nothing but its summary.
 */
function quiet(target: ContractTarget): ContractTarget {
  const logger = capturedLogger();
  return { ...target, start: (options, setup) => target.start({ logger, ...options }, setup) };
}
