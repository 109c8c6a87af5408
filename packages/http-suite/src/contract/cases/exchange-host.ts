import { memoryStore, type MemoryStore } from '@plantstore/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AT_MOST_WRITTEN, sendHugeBody, statusLineOf } from '../../client/huge-body';
import { type Outgoing, send } from '../../client/send';
import { sendOnAfterAnswer } from '../../client/still-sending';
import { METADATA_BODY_CASE } from './metadata';
import type { ContractHost } from '../../hosts/target';
import { contractView } from '../expect';
import { type ContractSuite, SCOPE } from '../suite';
import { EXCHANGES, type Exchange, expectedView, type TokenName } from './exchanges';

/** The requests only a raw socket can send, by a short name, and their tests' names. */
const RAW_CASES = {
  huge: 'answers 401 without a token with Connection: close, and reads no more of it',
  'huge 415': 'answers 415 for another media type with Connection: close, and reads no more of it',
  fillers: 'sees a Content-Encoding sent after 1000 filler headers, and answers 415',
  linger:
    'answers 401 before a 2 MiB body, then half-closes and reads on a while: the client still sending reads the answer, with no reset',
} as const;

/** The short name of a raw-socket case. */
export type RawCaseName = keyof typeof RAW_CASES;

/**
 * The test name of an exchange, or of a raw-socket case, for a host that decides it before the route
 * (a host body parser, a runtime's own HTTP server) and so skips it.
 *
 * @param name - the exchange's name, e.g. `'not JSON'`, or a raw case's: `'huge'`, `'huge 415'`, `'fillers'`
 * @returns the name of its test
 * @throws Error for a name that is neither
 */
export function exchangeTestName(name: string): string {
  if (name in RAW_CASES) return RAW_CASES[name as RawCaseName];
  const exchange = EXCHANGES.find((candidate) => candidate.name === name);
  if (exchange === undefined) throw new Error(`No exchange is called ${name}.`);
  return `answers the exchange "${exchange.name}" ${exchange.status}, to the letter`;
}

/**
 * Every raw-socket case, the metadata's included, skipped for one reason: for a runtime whose own
 * HTTP server, not the route, decides how a connection is read and closed.
 *
 * @param reason - why
 * @returns the skips, by test name
 */
export function rawCaseSkips(reason: string): Readonly<Record<string, string>> {
  return exchangeSkips([...Object.keys(RAW_CASES), 'metadata body'], reason);
}

/**
 * The exchanges whose answer closes the connection (`Connection: close`), skipped for one reason:
 * for a server that owns its connections and drops a response's hop-by-hop `Connection` field
 * (workerd).
 *
 * @param reason - why
 * @returns the skips, by test name
 */
export function closingExchangeSkips(reason: string): Readonly<Record<string, string>> {
  const closing = EXCHANGES.filter((exchange) => exchange.closes === true);
  return exchangeSkips(
    closing.map((exchange) => exchange.name),
    reason,
  );
}

/**
 * Exchanges and raw-socket cases skipped for one reason, by test name: for a host whose body
 * parser decides them before the route.
 *
 * @param names - the exchanges' and raw cases' short names (see {@link exchangeTestName}), and
 *   `'metadata body'` for the metadata's
 * @param reason - why
 * @returns the skips, by test name
 */
export function exchangeSkips(
  names: readonly string[],
  reason: string,
): Readonly<Record<string, string>> {
  // 'metadata body': the metadata's raw case, once per method.
  const tests = names.flatMap((name) =>
    name === 'metadata body'
      ? ['GET', 'POST'].map((method) => METADATA_BODY_CASE.replace('%s', method))
      : [exchangeTestName(name)],
  );
  return Object.fromEntries(tests.map((test) => [test, reason]));
}

/**
 * Registers the exchanges (every request of the contract one `send` can make, answered to the
 * letter) and the requests only a raw socket can send, on a host of their own with a fresh store.
 *
 * @param suite - the target's suite: its target, issuer and auth
 */
export function describeExchanges(suite: ContractSuite): void {
  describe('every request answered to the letter', () => {
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
      it(exchangeTestName(exchange.name), async () => {
        const reply = await send(host.url, request(exchange));
        expect(contractView(reply)).toStrictEqual(expectedView(exchange));
      });
    }

    it.each([
      [RAW_CASES.huge, 401, { 'content-type': 'application/json' }],
      [RAW_CASES['huge 415'], 415, { 'content-type': 'text/plain' }],
    ] as const)('%s', async (_c, status, headers) => {
      const url = new URL(`${host.url}/plants`);
      const extra = status === 415 ? { authorization: `Bearer ${tokens.valid}` } : {};
      const outcome = await sendHugeBody(url, { ...headers, ...extra });
      expect(outcome.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `, 'u'));
      expect(outcome.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(outcome.closedBy).toBe('server');
      expect(outcome.written).toBeLessThan(AT_MOST_WRITTEN);
    });

    it(RAW_CASES.linger, async () => {
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
      expect(outcome).toMatchObject({ serverEnded: true, reset: undefined, closedByServer: true });
    });

    it(RAW_CASES.fillers, async () => {
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
  });
}
