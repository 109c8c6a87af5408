import { beforeEach, describe } from 'vitest';
import type { ContractTarget } from '../hosts/target';
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
import { useContractSuite } from './suite';

/** Options of {@link describeHttpContract}. */
export interface ContractOptions {
  /** Cases the host decides before the route, by test name, each with the reason. */
  readonly skip?: Readonly<Record<string, string>>;
}

/**
 * Registers the HTTP contract of the route (docs/errors.md and the README's route section) with
 * vitest, to run against one entry: the same cases for fetch, node:http, Express 4 and 5, Koa 2 and
 * 3, Fastify 4 and 5, Bun, Deno and Hono. The main host takes the cases by status; a second host the
 * exchanges answered to the letter and the raw-socket requests; a third DPoP and the RFC 9728
 * metadata (see `describeDpopContract`); others RFC 8705 certificate-bound tokens, over HTTPS with
 * client certificates and through a trusted `Client-Cert` header (see `describeMtlsContract`).
 *
 * @param name - the entry's name
 * @param target - how to start it
 * @param options - `skip`: the cases the host decides before the route, by test name, each with
 *   the reason (see `exchangeTestName`)
 */
export function describeHttpContract(
  name: string,
  target: ContractTarget,
  options: ContractOptions = {},
): void {
  describe(`HTTP contract: ${name}`, () => {
    const skip = options.skip ?? {};
    beforeEach((context) => {
      const reason = skip[context.task.name];
      if (reason !== undefined) context.skip(`decided before the route: ${reason}`);
    });
    const suite = useContractSuite(target);
    describeCreated(suite);
    describeBodyRefusals(suite);
    describeAuthRefusals(suite);
    describeLimits(suite);
    describeFailures(suite);
    describeHookContext(suite);
    describeSeveralIssuers(suite);
    describePassingOn(suite);
    describeExchanges(suite);
    describeDpopContract(target, () => suite.issuer);
    describeMtlsContract(suite);
  });
}
