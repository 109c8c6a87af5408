import { memoryStore, type MemoryStore } from '@plantstore/core';
import { afterAll, beforeAll, expect } from 'vitest';
import { AT_MOST_WRITTEN, sendHugeBody, statusLineOf } from '../../client/huge-body';
import { type Outgoing, send } from '../../client/send';
import { sendOnAfterAnswer } from '../../client/still-sending';
import type { ContractHost } from '../../hosts/target';
import type { CaseTag } from '../coverage';
import { contractView } from '../expect';
import { type ContractSuite, SCOPE } from '../suite';
import { EXCHANGES, type Exchange, expectedView, type TokenName } from './exchanges';

/** The requests only a raw socket can send, by their case ids, and their tests' names. */
const RAW_CASES = {
  'raw.huge': 'answers 401 without a token with Connection: close, and reads no more of it',
  'raw.huge-415':
    'answers 415 for another media type with Connection: close, and reads no more of it',
  'raw.fillers': 'sees a Content-Encoding sent after 1000 filler headers, and answers 415',
  'raw.linger':
    'answers 401 before a 2 MiB body, then half-closes and reads on a while: the client still sending reads the answer, with no reset',
} as const;

/**
 * The case id of an exchange: `exchange.` and its name, spaces as dashes (`exchange.not-JSON`).
 *
 * @param name - the exchange's name in {@link EXCHANGES}, e.g. `'not JSON'`
 * @returns its case id, for a host's `decides`
 * @throws Error for a name that no exchange has
 */
export function exchangeId(name: string): string {
  if (!EXCHANGES.some((exchange) => exchange.name === name)) {
    throw new Error(`No exchange is called ${name}.`);
  }
  return `exchange.${name.replaceAll(' ', '-')}`;
}

/**
 * Exchanges decided before the route for one reason, for a host's `decides`: a host body parser
 * that judges these bodies itself.
 *
 * @param names - the exchanges' names in {@link EXCHANGES}
 * @param reason - why
 * @returns the decisions, by case id
 */
export function exchangesDecided(
  names: readonly string[],
  reason: string,
): Readonly<Record<string, string>> {
  return Object.fromEntries(names.map((name) => [exchangeId(name), reason]));
}

/** The tags of an exchange: what its answer depends on. */
function tagsOf(exchange: Exchange): CaseTag[] {
  const tags: CaseTag[] = ['exchange'];
  if (exchange.status === 200 || exchange.status === 409) tags.push('created', 'store');
  else if (exchange.status === 400 || exchange.status === 415) tags.push('body');
  else if (exchange.status === 401 || exchange.status === 403) tags.push('auth');
  else tags.push('body-read');
  if (exchange.closes === true) tags.push('closes');
  return tags;
}

/**
 * Registers the exchanges (every request of the contract one `send` can make, answered to the
 * letter) and the requests only a raw socket can send, on a host of their own with a fresh store.
 *
 * @param suite - the target's suite: its target, issuer and auth
 */
export function describeExchanges(suite: ContractSuite): void {
  const { test, group } = suite;
  group(
    'every request answered to the letter',
    ['exchange', 'created', 'store', 'body', 'auth', 'body-read', 'closes', 'raw-socket'],
    () => {
      let host: ContractHost;
      let store: MemoryStore;
      const tokens: Record<TokenName, string> = { valid: '', expired: '', reader: '' };

      beforeAll(async () => {
        store = memoryStore();
        host = await suite.target.start(
          { store, auth: suite.auth(), bodyTimeout: 300 },
          suite.setup(),
        );
        const { issuer } = suite;
        tokens.valid = await issuer.sign({ scope: SCOPE });
        tokens.expired = await issuer.sign({ scope: SCOPE }, { expiresIn: -60 });
        tokens.reader = await issuer.sign({ scope: 'plants:read' });
      });
      afterAll(async () => {
        await host?.close();
      });

      const request = (exchange: Exchange): Outgoing => {
        const fill = (value: string) =>
          value.replace(/\{(valid|expired|reader)\}/u, (_all, name: TokenName) => tokens[name]);
        const headers = exchange.headers ?? {
          authorization: 'Bearer {valid}',
          'content-type': 'application/json',
        };
        return {
          body: exchange.body,
          // Keep-alive asked for, so a `Connection: close` in the answer is the route's own decision.
          headers: {
            connection: 'keep-alive',
            ...Object.fromEntries(
              Object.entries(headers).map(([name, value]) => [
                name,
                typeof value === 'string' ? fill(value) : value.map(fill),
              ]),
            ),
          },
        };
      };

      for (const exchange of EXCHANGES) {
        const title = `answers the exchange "${exchange.name}" ${exchange.status}, to the letter`;
        test(exchangeId(exchange.name), tagsOf(exchange), title, async () => {
          const reply = await send(host.url, request(exchange));
          expect(contractView(reply)).toStrictEqual(expectedView(exchange));
        });
      }

      for (const [caseId, status, headers] of [
        ['raw.huge', 401, { 'content-type': 'application/json' }],
        ['raw.huge-415', 415, { 'content-type': 'text/plain' }],
      ] as const) {
        test(caseId, ['raw-socket', 'closes', 'body-read'], RAW_CASES[caseId], async () => {
          const url = new URL(`${host.url}/plants`);
          const extra = status === 415 ? { authorization: `Bearer ${tokens.valid}` } : {};
          const outcome = await sendHugeBody(url, { ...headers, ...extra });
          expect(outcome.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `, 'u'));
          expect(outcome.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
          expect(outcome.closedBy).toBe('server');
          expect(outcome.written).toBeLessThan(AT_MOST_WRITTEN);
        });
      }

      test(
        'raw.linger',
        ['raw-socket', 'closes', 'body-read'],
        RAW_CASES['raw.linger'],
        async () => {
          const url = new URL(`${host.url}/plants`);
          const outcome = await sendOnAfterAnswer(url, { 'content-type': 'application/json' });
          const [answer] = outcome.responses;
          expect(outcome.responses).toHaveLength(1);
          expect(answer?.status).toBe(401);
          expect(answer?.headers['connection']).toBe('close');
          expect(answer?.text).toBe(
            JSON.stringify({
              error: 401,
              message: 'A bearer token is required in the Authorization header.',
            }),
          );
          expect(outcome).toMatchObject({
            serverEnded: true,
            reset: undefined,
            closedByServer: true,
          });
        },
      );

      test('raw.fillers', ['raw-socket', 'body'], RAW_CASES['raw.fillers'], async () => {
        const url = new URL(`${host.url}/plants`);
        const body = '{"id":9,"name":"Fern"}';
        const fillers = Array.from({ length: 1000 }, (_, n) => `x-filler-${n}: a\r\n`).join('');
        const head =
          `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n` +
          `authorization: Bearer ${tokens.valid}\r\ncontent-type: application/json\r\n` +
          `${fillers}content-encoding: gzip\r\ncontent-length: ${body.length}\r\n`;
        const before = store.size;
        expect(await statusLineOf(url, head, body)).toBe('HTTP/1.1 415 Unsupported Media Type');
        expect(store.size).toBe(before);
      });
    },
  );
}
