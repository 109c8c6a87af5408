import {
  dpopBinding,
  jwtBearer,
  memoryStore,
  type PlantServiceError,
  type PlantServiceOptions,
} from '@plantstore/core';
import { createDpopClient, createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import type { OutgoingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { type Outgoing, type Reply, send } from '../client/send';
import { capturedLogger } from '../contract/captured-logger';
import { caseRegistrar, type HostCoverage } from '../contract/coverage';
import { contractView, expectError } from '../contract/expect';
import type { ContractHost } from '../hosts/target';
import type { GuardTarget } from './guard-target';

const SCOPE = 'plants:write';
const PUBLIC_URL = 'https://api.example.com';
const BODY = '{"id":1,"name":"a"}';

/**
 * The auth cases of the contract on a host's guarded routes (see {@link GuardTarget}): every
 * refusal the plant route answers, sent to `POST {url}/plants`, `GET {url}/things` and
 * `DELETE {url}/things/7` alike, answered to the letter alike (status, contract headers, body) and
 * reported alike; the principal handed to the handler; the body left whole for it; per-route
 * scopes and claims; the key set fetched once for the route and the guards; an outage answered 503;
 * DPoP proofs checked against the guarded request's own method and URL.
 *
 * @param name - the host's name
 * @param target - how to start it
 * @param coverage - which cases run, as for the route's contract
 * @example
 * ```ts
 * describeGuardContract('Express 5', expressGuardTarget(EXPRESS_MAJORS['Express 5'], adapter));
 * ```
 */
export function describeGuardContract(
  name: string,
  target: GuardTarget,
  coverage: HostCoverage = {},
): void {
  describe(`guard contract: ${name}`, () => {
    const { test, group, verify } = caseRegistrar(coverage);
    beforeAll(verify);
    const rejected: PlantServiceError[] = [];
    const paths: string[] = [];
    const hosts: ContractHost[] = [];
    let issuer: TokenIssuer;
    let host: ContractHost;
    let token = '';

    const options = (extra: Partial<PlantServiceOptions> = {}): PlantServiceOptions => ({
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: issuer.audience,
        requiredScopes: [SCOPE],
      }),
      logger: capturedLogger(),
      onRejected: (error, context) => {
        rejected.push(error);
        paths.push(context.path);
      },
      ...extra,
    });
    const started = async (extra?: Partial<PlantServiceOptions>) => {
      const running = await target.start(options(extra));
      hosts.push(running);
      return running;
    };

    beforeAll(async () => {
      issuer = await createTokenIssuer();
      token = await issuer.sign({ sub: 'gardener', scope: SCOPE });
      host = await started();
    });
    afterEach(() => issuer.outage('none'));
    afterAll(async () => {
      await Promise.all(hosts.map((running) => running.close()));
      await issuer.close();
    });

    /**
     * The same request to the route and to both guarded routes. Its length is declared: Node's
     * client neither counts nor chunks a GET's or DELETE's body by itself.
     */
    const sendAll = async (at: ContractHost, outgoing: Outgoing): Promise<Reply[]> => {
      const length = Buffer.byteLength(outgoing.body ?? '');
      const sent = { ...outgoing, headers: { ...outgoing.headers, 'content-length': length } };
      return [
        await send(at.url, { ...sent, method: 'POST', path: '/plants' }),
        await send(at.url, { ...sent, method: 'GET', path: '/things' }),
        await send(at.url, { ...sent, method: 'DELETE', path: '/things/7' }),
      ];
    };
    const expectAlike = (replies: readonly Reply[]) => {
      const [route, ...guarded] = replies.map(contractView);
      for (const view of guarded) expect(view).toEqual(route);
    };

    group('every auth refusal, answered as the plant route answers it', ['auth', 'guard'], () => {
      const FIELDS: readonly (readonly [string, () => Promise<string | string[] | undefined>])[] = [
        ['no field', () => Promise.resolve(undefined)],
        ['an empty field', () => Promise.resolve('')],
        ['another scheme', () => Promise.resolve('Basic dXNlcjpwYXNz')],
        ['Bearer glued to the token', () => Promise.resolve('Bearerabc.def.ghi')],
        ['Bearer with no token', () => Promise.resolve('Bearer')],
        ['two tokens', () => Promise.resolve('Bearer abc def')],
        ['a quoted token', () => Promise.resolve('Bearer "abc"')],
        ['a comma list', () => Promise.resolve('Bearer abc, Basic x')],
        ['a token that is no JWS', () => Promise.resolve('Bearer abc.def.ghi')],
        ['a repeated field', () => Promise.resolve([`Bearer ${token}`, `Bearer ${token}`])],
        ['an expired token', async () => `Bearer ${await issuer.sign({}, { expiresIn: -60 })}`],
        [
          'another audience',
          async () => `Bearer ${await issuer.sign({ aud: 'https://x.example' })}`,
        ],
        ['a token without the scope', async () => `Bearer ${await issuer.sign({ scope: 'a' })}`],
      ];
      for (const [what, field] of FIELDS) {
        const slug = what.replaceAll(' ', '-');
        test(`guard.field.${slug}`, ['auth', 'guard'], `answers ${what} alike`, async () => {
          const authorization = await field();
          // Capitalised: Node's typings allow an array (sent as two header lines) only by index.
          const headers: OutgoingHttpHeaders =
            authorization === undefined ? {} : { Authorization: authorization };
          const from = rejected.length;
          const replies = await sendAll(host, {
            headers: { ...headers, 'content-type': 'application/json' },
            body: BODY,
          });
          expect(replies[0]?.status).toBeGreaterThanOrEqual(400);
          for (const reply of replies) expectError(reply, replies[0]?.status ?? 0);
          expectAlike(replies);
          const codes = rejected.slice(from).map((error) => error.code);
          expect(codes).toHaveLength(3);
          expect(new Set(codes).size).toBe(1);
          expect(paths.slice(from)).toEqual(['/api/plants', '/api/things', '/api/things/7']);
        });
      }

      test('guard.before-body', ['auth', 'guard'], 'refuses without reading the body', async () => {
        for (const method of ['POST', 'DELETE']) {
          const reply = await send(host.url, {
            method,
            path: method === 'POST' ? '/plants' : '/things/7',
            headers: { 'content-type': 'application/json', 'content-length': '1000000' },
            stallAfter: '{"id":1,',
          });
          expectError(reply, 401);
          expect(reply.headers.connection).toBe('close');
        }
      });
    });

    group('what a guarded handler gets', ['auth', 'guard'], () => {
      test(
        'guard.principal',
        ['auth', 'guard'],
        "hands the principal to the handler in the host's convention",
        async () => {
          const reply = await send(host.url, {
            method: 'GET',
            path: '/things',
            headers: { authorization: `Bearer ${token}` },
          });
          expect([reply.status, reply.json]).toEqual([
            200,
            { method: 'GET', subject: 'gardener', body: '' },
          ]);
        },
      );

      test(
        'guard.body-whole',
        ['auth', 'guard'],
        'leaves the body whole for the handler, byte for byte',
        async () => {
          const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x00, 0x22, 0x7d, 0x0a]);
          const reply = await send(host.url, {
            method: 'DELETE',
            path: '/things/7',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'content-length': bytes.length,
            },
            body: bytes,
          });
          expect(reply.status).toBe(200);
          expect(reply.json).toEqual({
            method: 'DELETE',
            subject: 'gardener',
            body: Buffer.from(bytes).toString('base64'),
          });
        },
      );

      test(
        'guard.per-route',
        ['auth', 'guard'],
        "checks a route's own scopes (any of them) and claims: 403 insufficient_scope, then 403 claim_mismatch without a challenge",
        async () => {
          const get = async (claims: Record<string, unknown>) =>
            send(host.url, {
              method: 'GET',
              path: '/admin',
              headers: { authorization: `Bearer ${await issuer.sign({ sub: 'g', ...claims })}` },
            });
          const noScope = await get({ scope: SCOPE, tenant: 'acme' });
          expectError(noScope, 403);
          expect(noScope.headers['www-authenticate']).toBe(
            'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:admin plants:owner"',
          );
          const otherTenant = await get({ scope: `${SCOPE} plants:owner`, tenant: 'globex' });
          expectError(otherTenant, 403);
          expect(otherTenant.headers['www-authenticate']).toBeUndefined();
          expect(otherTenant.json).toEqual({
            error: 403,
            message: "The bearer token's tenant claim is not one this route accepts.",
          });
          expect(rejected.at(-1)?.code).toBe('claim_mismatch');
          const admitted = await get({ scope: `${SCOPE} plants:owner`, tenant: 'initech' });
          expect([admitted.status, admitted.json]).toEqual([
            200,
            { method: 'GET', subject: 'g', body: '' },
          ]);
        },
      );
    });

    group('one key set, one provider outage', ['auth', 'guard', 'failures'], () => {
      test(
        'guard.one-key-set-fetch',
        ['auth', 'guard'],
        'fetches the key set once for the route and its guards',
        async () => {
          const fresh = await started();
          const before = issuer.requests;
          const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          const replies = await sendAll(fresh, { headers, body: '{"id":2,"name":"Fern"}' });
          expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
          expect(issuer.requests - before).toBe(1);
        },
      );

      test(
        'guard.outage',
        ['auth', 'guard', 'failures'],
        'answers 503 with Retry-After while the key set cannot be fetched, as the route does',
        async () => {
          const fresh = await started();
          issuer.outage('down');
          const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          const replies = await sendAll(fresh, { headers, body: BODY });
          for (const reply of replies) {
            expectError(reply, 503);
            expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
          }
          expect(rejected.slice(-3).map((error) => error.code)).toEqual([
            'jwks_unavailable',
            'jwks_unavailable',
            'jwks_unavailable',
          ]);
        },
      );
    });

    group('DPoP on a guarded route', ['auth', 'guard', 'dpop'], () => {
      test(
        'guard.dpop',
        ['auth', 'guard', 'dpop'],
        "checks a proof against the guarded request's method and publicUrl with its path",
        async () => {
          const fresh = await started({
            auth: jwtBearer({
              jwksUri: issuer.jwksUri,
              issuer: issuer.issuer,
              audience: issuer.audience,
              dpop: dpopBinding(),
            }),
            publicUrl: PUBLIC_URL,
          });
          const client = await createDpopClient();
          const bound = await issuer.sign({ sub: 'gardener' }, { boundTo: client });
          const url = `${PUBLIC_URL}/api/things/7`;
          const proofFor = async (method: string, at: string) => ({
            headers: await client.headers(bound, { method, url: at }),
            method: 'DELETE',
            path: '/things/7',
          });
          const good = await send(fresh.url, await proofFor('DELETE', url));
          expect([good.status, good.json]).toEqual([
            200,
            { method: 'DELETE', subject: 'gardener', body: '' },
          ]);
          expectError(await send(fresh.url, await proofFor('POST', url)), 401);
          expect(rejected.at(-1)?.code).toBe('dpop_proof_method_mismatch');
          const elsewhere = await proofFor('DELETE', `${PUBLIC_URL}/api/plants`);
          const refused = await send(fresh.url, elsewhere);
          expectError(refused, 401);
          expect(refused.headers['www-authenticate']).toContain(
            'error_description="The DPoP proof htu is not the request URL"',
          );
        },
      );
    });
  });
}
