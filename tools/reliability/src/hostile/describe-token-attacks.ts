import { keepAliveClient, type KeepAliveClient, plantBody } from '@plantstore/http-suite/client';
import type { HostName } from '../host/adapters';
import type { Expectation, RequestContext } from './case';
import { created } from './case';
import { caseRegistrar, type CaseTag, type HostCoverage } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuTally } from './cpu-tally';
import { CPU_BUDGET_MS, describeExpectation, hostileCaseId } from './describe-catalog';
import { expectOutcome } from './expect-outcome';
import { type HostileHost, startHost } from './hosts';
import { type Identity, SCOPE, startIdentity } from './identity';
import { runCase } from './run-case';
import type { TokenAttack } from './token-attack';
import { claimAttacks } from './token-attacks-claims';
import { formatAttacks } from './token-attacks-format';
import { keyAttacks } from './token-attacks-keys';
import { placementAttacks } from './token-attacks-placement';
import { createTokenKit, type TokenKit } from './token-kit';

/** Every token attack, each with the answer the contract gives it. */
export const tokenAttacks: readonly TokenAttack[] = [
  ...keyAttacks,
  ...claimAttacks,
  ...formatAttacks,
  ...placementAttacks,
];

/** The groups whose answers depend on how the host hands over its headers. */
const PLACEMENT_GROUPS: readonly string[] = [
  'repeated and misplaced credentials',
  'scheme variants',
];

/** What an attack exercises: the verifier alone, or the host's headers too. */
const tagOf = (attack: TokenAttack): CaseTag =>
  PLACEMENT_GROUPS.includes(attack.group) ? 'token-placement' : 'token-attack';

/** Ids of the plants the attacks post: one per attack, so an accepted attack stores its own plant. */
const FIRST_ID = 20_000;

/** The bearer token an attack sent, to check that no answer echoes it. */
function sentToken(headers: Readonly<Record<string, unknown>>): string | undefined {
  const value = headers['authorization'];
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  if (typeof first !== 'string') return undefined;
  const token = first.trim().split(/\s+/)[1];
  return token !== undefined && token.length >= 16 ? token : undefined;
}

/**
 * The string claims of a token (and strings in list claims), to check that no answer echoes them.
 * The audience is left out: it is also the realm the challenge names; so is the required scope.
 */
function claimStrings(token: string | undefined): string[] {
  const payload = token?.split('.')[1];
  if (payload === undefined) return [];
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (typeof claims !== 'object' || claims === null) return [];
  return Object.values(claims)
    .flatMap((value: unknown) => (Array.isArray(value) ? (value as unknown[]) : [value]))
    .filter((value): value is string => typeof value === 'string' && value.length >= 6)
    .filter((value) => !['plantstore', SCOPE].includes(value));
}

/**
 * Registers the token attacks against one adapter: a host verifying against the issuer's JWKS,
 * and a host with a `publicKey` the test holds the private half of. The attacker's JWKS server must
 * see no request, and the issuer's JWKS no fetch beyond the first.
 *
 * @param adapter - one of `HOSTILE_HOSTS`
 * @param coverage - which attacks the host runs: the verifier alone decides a forged token
 *   (`token-attack`), the host's headers count for misplaced ones (`token-placement`)
 * @param attacks - the attacks. Default all of them
 */
export function describeTokenAttacks(
  adapter: HostName,
  coverage: HostCoverage = {},
  attacks: readonly TokenAttack[] = tokenAttacks,
): void {
  describe(`token attacks on ${adapter}`, () => {
    let identity: Identity;
    let kit: TokenKit;
    const hosts = {} as Record<
      'jwks' | 'public key',
      { host: HostileHost; client: KeepAliveClient }
    >;
    let fetchesAtStart = 0;
    let startedAt = 0;
    const tally = new CpuTally();

    beforeAll(async () => {
      identity = await startIdentity();
      kit = await createTokenKit(identity);
      for (const target of ['jwks', 'public key'] as const) {
        const publicKey = target === 'jwks' ? undefined : kit.trustedPem;
        const host = await startHost(adapter, { auth: () => identity.auth(publicKey) });
        hosts[target] = { host, client: keepAliveClient(host.origin, 1) };
      }
      fetchesAtStart = identity.issuer.requests;
      startedAt = performance.now();
    });

    afterAll(async () => {
      for (const { host, client } of Object.values(hosts)) {
        client.close();
        await host.close();
      }
      await kit?.close();
      await identity?.close();
      if (process.env['HOSTILE_REPORT'] !== undefined)
        console.log(`${adapter} tokens: ${tally.summary()}`);
    });

    const { test: register, verify } = caseRegistrar(coverage);
    attacks.forEach((attack, index) => {
      const id = BigInt(FIRST_ID + index);
      const expected: Expectation =
        attack.expect === 'accepted' ? created(id, 'Token') : attack.expect;
      const target = attack.target ?? 'jwks';
      const title = `${attack.group}: ${attack.name} → ${describeExpectation(expected)}`;
      register(hostileCaseId(attack.group, attack.name), [tagOf(attack)], title, async () => {
        const { host, client } = hosts[target];
        const request = await attack.build(kit);
        const context: RequestContext = {
          token: '',
          host: `127.0.0.1:${host.port}`,
          path: '/plants',
        };
        const outcome = await runCase(
          host,
          client,
          {
            kind: 'http',
            headers: { authorization: null, ...request.headers },
            body: request.body ?? plantBody({ id, name: 'Token' }),
            ...(request.path === undefined ? {} : { path: request.path }),
          },
          context,
        );
        tally.add(outcome.status, outcome.cpuMicros);
        const token = sentToken(request.headers);
        expectOutcome(outcome, expected, host.store, token);
        const challenge = String(outcome.headers['www-authenticate'] ?? '');
        for (const claim of claimStrings(token)) {
          expect(outcome.text).not.toContain(claim);
          expect(challenge).not.toContain(claim);
        }
      });
    });

    verify();

    it('never fetches a key from a jku, x5u, jwk or x5c header', () => {
      expect(kit.attacker.requests).toBe(0);
    });

    it('fetches the JWKS at most once a second for unknown kids, however many are sent', () => {
      const seconds = (performance.now() - startedAt) / 1000;
      expect(identity.issuer.requests - fetchesAtStart).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    });

    it(`spends less than ${CPU_BUDGET_MS} ms of server CPU per attack on average`, () => {
      expect(tally.averageMs()).toBeLessThan(CPU_BUDGET_MS);
    });
  });
}
