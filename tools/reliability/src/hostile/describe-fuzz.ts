import { keepAliveClient, type KeepAliveClient } from '@plantstore/http-suite/client';
import type { HostName } from '../host/adapters';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeBody, type OraclePlant } from './body-oracle';
import { bodyBytes } from './body-arbitraries';
import { CpuTally } from './cpu-tally';
import { CPU_BUDGET_MS } from './describe-catalog';
import { contractProblems, STATUS_OF } from './expect-outcome';
import {
  authorizationVariant,
  contentEncodingVariant,
  contentTypeVariant,
  type FuzzTokens,
  type HeaderVariant,
} from './header-arbitraries';
import { type HostileHost, startHost } from './hosts';
import { type Identity, startIdentity } from './identity';
import { type Outcome, runCase } from './run-case';

/** Generated requests per adapter: 10,000 by default (what CI runs), `FUZZ_RUNS` to change it. */
export const FUZZ_RUNS = runsFromEnvironment(process.env['FUZZ_RUNS']);

function runsFromEnvironment(value: string | undefined): number {
  if (value === undefined || value === '') return 10_000;
  const runs = Number(value);
  if (!Number.isSafeInteger(runs) || runs < 1) {
    throw new TypeError(`FUZZ_RUNS must be a whole number of at least 1; received "${value}"`);
  }
  return runs;
}

interface Generated {
  readonly auth: HeaderVariant;
  readonly type: HeaderVariant;
  readonly encoding: HeaderVariant;
  readonly body: Uint8Array;
}

function codeOf(outcome: Outcome): string | undefined {
  return outcome.rejected.length === 1 ? outcome.rejected[0]?.code : undefined;
}

const plantJson = (plant: OraclePlant) =>
  JSON.stringify(
    plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag },
  );

/**
 * Checks one answer against the oracle: the header variants' refusals first (auth, then encoding,
 * then type: the route's order of checks), then {@link judgeBody}, then the model of the store for
 * replays (200) and conflicts (409). Updates the model with what the store now holds.
 *
 * @returns what is wrong, as sentences; empty when the answer is right
 */
function check(
  generated: Generated,
  outcome: Outcome,
  host: HostileHost,
  model: Map<bigint, OraclePlant>,
): string[] {
  const authorization = generated.auth.headers['authorization'];
  const token = typeof authorization === 'string' ? authorization.split(/\s+/)[1] : undefined;
  const problems = contractProblems(
    outcome,
    token !== undefined && token.length >= 16 ? token : undefined,
  );
  const want = (ok: boolean, problem: string): void => void (ok || problems.push(problem));
  const code = codeOf(outcome);
  want(outcome.status < 500, 'a 5xx');
  want(outcome.errors.length === 0, 'onError was called');
  want(
    outcome.created === outcome.sizeAfter - outcome.sizeBefore,
    'onCreated does not match the store',
  );
  want(outcome.hostEvents.length === 0, 'an error or request reached the host');
  if (outcome.status === 200)
    want(outcome.rejected.length === 0, 'onRejected was called for a 200');
  else {
    want(outcome.rejected.length === 1, `onRejected was called ${outcome.rejected.length} times`);
    want(
      STATUS_OF[code as keyof typeof STATUS_OF] === outcome.status,
      `code ${code} does not fit status ${outcome.status}`,
    );
    want(outcome.sizeAfter === outcome.sizeBefore, 'a refusal changed the store');
  }
  const refusal = generated.auth.refusal ?? generated.encoding.refusal ?? generated.type.refusal;
  if (refusal !== undefined) {
    want(
      refusal.statuses.includes(outcome.status) &&
        refusal.codes.some((allowed) => allowed === code),
      `expected ${refusal.statuses.join('/')} ${refusal.codes.join('|')}`,
    );
    return problems;
  }
  const verdict = judgeBody(generated.body);
  if (!verdict.valid) {
    want(
      outcome.status === verdict.status && verdict.codes.some((allowed) => allowed === code),
      `expected ${verdict.status} ${verdict.codes.join('|')}`,
    );
    return problems;
  }
  const { plant } = verdict;
  const before = model.get(plant.id);
  if (before === undefined && outcome.status === 200) model.set(plant.id, plant);
  if (before !== undefined && (before.name !== plant.name || before.tag !== plant.tag)) {
    want(
      outcome.status === 409 && code === 'id_conflict',
      'expected 409 id_conflict for another plant under a stored id',
    );
    return problems;
  }
  want(
    outcome.status === 200,
    `expected 200 for a valid body (${before === undefined ? 'new' : 'a replay'})`,
  );
  want(outcome.text === plantJson(plant), 'the 200 body is not the plant without its id');
  const stored = host.store.get(plant.id);
  want(
    stored !== undefined &&
      stored.name === plant.name &&
      stored.tag === plant.tag &&
      // The plant's fields and the five the core keeps beside it for audit, nothing more.
      Object.keys(stored).length === Object.keys(plant).length + 5,
    'the store does not hold exactly the plant',
  );
  want(
    outcome.sizeAfter - outcome.sizeBefore === (before === undefined ? 1 : 0),
    'the store grew by the wrong amount',
  );
  return problems;
}

/** Describes a generated request for a failure message, with the body's first bytes. */
function describeRequest(generated: Generated): string {
  const body = Buffer.from(generated.body);
  const shown =
    body.length > 300
      ? `${body.subarray(0, 300).toString('latin1')}… (${body.length} bytes)`
      : body.toString('latin1');
  return `auth: ${generated.auth.label}; type: ${generated.type.label}; encoding: ${generated.encoding.label}; body: ${JSON.stringify(shown)}`;
}

/**
 * Registers the fuzz run against one adapter: {@link FUZZ_RUNS} generated requests (bodies from
 * plant-shaped, mutated, byte-level, deep, near-limit and arbitrary generators; authorization,
 * content-type and content-encoding variants), sent one after another on a keep-alive connection
 * and checked against the oracle and a model of the store.
 *
 * @param adapter - one of `HOSTILE_HOSTS`
 */
export function describeFuzz(adapter: HostName): void {
  describe(`HTTP fuzz on ${adapter}`, () => {
    let identity: Identity;
    let host: HostileHost;
    let client: KeepAliveClient;
    let tokens: FuzzTokens;
    const tally = new CpuTally();

    beforeAll(async () => {
      identity = await startIdentity();
      host = await startHost(adapter, { auth: () => identity.auth() });
      client = keepAliveClient(host.origin, 1);
      tokens = {
        valid: await identity.sign(),
        expired: await identity.sign({ exp: identity.nowSeconds - 60 }),
        otherAudience: await identity.sign({ aud: 'another-api' }),
        noScope: await identity.sign({ scope: undefined }),
      };
    });

    afterAll(async () => {
      client?.close();
      await host?.close();
      await identity?.close();
      if (process.env['HOSTILE_REPORT'] !== undefined)
        console.log(`${adapter} fuzz: ${tally.summary()}`);
    });

    it(
      `answers ${FUZZ_RUNS} generated requests as the oracle says, never with a 5xx`,
      async () => {
        const model = new Map<bigint, OraclePlant>();
        const generated = fc.record({
          auth: authorizationVariant(tokens),
          type: contentTypeVariant,
          encoding: contentEncodingVariant,
          body: bodyBytes,
        });
        // A failure prints its seed and path; FUZZ_SEED and FUZZ_PATH replay it.
        const seed = process.env['FUZZ_SEED'];
        const path = process.env['FUZZ_PATH'];
        await fc.assert(
          fc.asyncProperty(generated, async (request) => {
            const outcome = await runCase(
              host,
              client,
              {
                kind: 'http',
                headers: {
                  authorization: null,
                  'content-type': null,
                  ...request.auth.headers,
                  ...request.type.headers,
                  ...request.encoding.headers,
                },
                body: request.body,
              },
              { token: '', host: '', path: '/plants' },
            );
            tally.add(outcome.status, outcome.cpuMicros);
            const problems = check(request, outcome, host, model);
            if (problems.length > 0) {
              const code = codeOf(outcome) ?? 'none';
              throw new Error(
                `${problems.join('; ')}. Answer: ${outcome.status} ${code}. Request: ${describeRequest(request)}`,
              );
            }
          }),
          {
            numRuns: FUZZ_RUNS,
            ...(seed === undefined ? {} : { seed: Number(seed) }),
            ...(path === undefined ? {} : { path }),
          },
        );
        expect(tally.averageMs()).toBeLessThan(CPU_BUDGET_MS);
        // Generous: about 1 ms per run on an idle machine, several under a loaded CI.
      },
      Math.max(180_000, FUZZ_RUNS * 20),
    );
  });
}
