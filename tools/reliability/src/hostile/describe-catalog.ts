import { keepAliveClient, type KeepAliveClient } from '@plantstore/http-suite/client';
import type { HostName } from '../host/adapters';
import { caseRegistrar, type HostCoverage } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expectation, HostileCase, RequestContext } from './case';
import { hostileCatalog } from './catalog';
import { CpuTally } from './cpu-tally';
import { expectOutcome } from './expect-outcome';
import { type HostileHost, startHost } from './hosts';
import { type Identity, startIdentity } from './identity';
import { runCase } from './run-case';

/** Average server-side CPU per case that the runs must stay under, in milliseconds. */
export const CPU_BUDGET_MS = 5;

/** How a case's expectation reads in a test name: `400 body_not_json`, `200 stored`, `400 by Node`. */
export function describeExpectation(expected: Expectation): string {
  if (expected.by === 'node') return `${expected.status} by Node's HTTP parser`;
  return expected.status === 200 ? '200, stored exactly' : `${expected.status} ${expected.code}`;
}

/** Options of {@link describeCatalog}. */
export interface CatalogRunOptions {
  /** What the `describe` is called. Default `hostile bodies and headers`. */
  readonly title?: string;
  /** The host's body limit. Default the service's, 16 KiB. */
  readonly bodyLimit?: number;
  /** Average server CPU per case allowed, in ms. Default {@link CPU_BUDGET_MS}. */
  readonly averageCpuMs?: number;
  /** CPU any single case may take, in ms: catches work that grows faster than the input. */
  readonly maxCaseCpuMs?: number;
  /** Which cases the host runs and decides. Default every case. */
  readonly coverage?: HostCoverage;
}

/** A case id made of words: `hostile.framing.two-content-length-fields`. */
export function hostileCaseId(...words: readonly string[]): string {
  const slug = (word: string) =>
    word
      .toLowerCase()
      .replace(/[^a-z0-9]+/gu, '-')
      .replace(/^-|-$/gu, '');
  return ['hostile', ...words.map(slug)].join('.');
}

/**
 * Registers a catalog against one adapter: a real app on port 0 with a fresh `memoryStore()` and
 * `jwtBearer` against a local JWKS; one test per case, sent one at a time on a keep-alive
 * connection (raw cases on their own socket), then the CPU budget and a prototype check.
 *
 * @param adapter - one of `HOSTILE_HOSTS`
 * @param cases - the cases to run. Default the whole catalog
 * @param options - title, body limit and CPU budgets
 */
export function describeCatalog(
  adapter: HostName,
  cases: readonly HostileCase[] = hostileCatalog,
  options: CatalogRunOptions = {},
): void {
  const title = options.title ?? 'hostile bodies and headers';
  const averageCpuMs = options.averageCpuMs ?? CPU_BUDGET_MS;
  describe(`${title} on ${adapter}`, () => {
    let identity: Identity;
    let host: HostileHost;
    let client: KeepAliveClient;
    let context: RequestContext;
    const tally = new CpuTally();
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

    beforeAll(async () => {
      identity = await startIdentity();
      host = await startHost(adapter, {
        auth: () => identity.auth(),
        ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      });
      client = keepAliveClient(host.origin, 1);
      context = { token: await identity.sign(), host: `127.0.0.1:${host.port}`, path: '/plants' };
    });

    afterAll(async () => {
      client?.close();
      await host?.close();
      await identity?.close();
      if (process.env['HOSTILE_REPORT'] !== undefined) {
        console.log(
          `${adapter} ${title}: ${tally.summary()}\n  ${tally.costliest(5).join('\n  ')}`,
        );
      }
    });

    const { test: register, verify } = caseRegistrar(options.coverage);
    for (const testCase of cases) {
      const marker =
        testCase.deviation === undefined
          ? ''
          : ' [known deviation, see docs/reference/reliability.md]';
      const name = `${testCase.group}: ${testCase.name}`;
      const title = `${name} → ${describeExpectation(testCase.expect)}${marker}`;
      const id = hostileCaseId(testCase.group, testCase.name);
      register(id, ['hostile-input'], title, async () => {
        const outcome = await runCase(host, client, testCase.request, context);
        tally.add(outcome.status, outcome.cpuMicros, name);
        const pipelined = testCase.pipelined ?? [];
        expectOutcome(
          outcome,
          testCase.expect,
          host.store,
          context.token,
          pipelined.map((answer) => answer.code),
        );
        expect(outcome.later).toEqual(pipelined.map((answer) => answer.status));
        if (options.maxCaseCpuMs !== undefined) {
          const cpuMs = outcome.cpuMicros.reduce((sum, micros) => sum + micros, 0) / 1000;
          expect(cpuMs).toBeLessThan(options.maxCaseCpuMs);
        }
      });
    }

    verify();

    it(`spends less than ${averageCpuMs} ms of server CPU per case on average`, () => {
      expect(tally.cases).toBeGreaterThan(cases.length / 2);
      expect(tally.averageMs()).toBeLessThan(averageCpuMs);
    });

    it('leaves Object.prototype as it was', () => {
      const probe = {} as Record<string, unknown>;
      expect(probe['admin']).toBeUndefined();
      expect(probe['polluted']).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    });
  });
}
