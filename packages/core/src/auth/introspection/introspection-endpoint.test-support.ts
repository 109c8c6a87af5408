import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TokenIntrospectionOptions } from './token-introspection';

/** One request the endpoint received, as it arrived. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly form: URLSearchParams;
}

/** A raw answer: status, content type and body text; `hang` never answers. */
export type RawAnswer = { readonly status: number; readonly type: string; readonly body: string };

/** An RFC 7662 introspection endpoint and RFC 8414 metadata on 127.0.0.1, for tests. */
export interface IntrospectionEndpoint {
  /** `http://127.0.0.1:<port>`, the issuer. */
  readonly issuer: string;
  /** The introspection endpoint, `<issuer>/introspect`. */
  readonly endpoint: string;
  /** Every introspection request, in order (metadata requests are in `metadataRequests`). */
  readonly requests: ReceivedRequest[];
  readonly metadataRequests: string[];
  /** Answers for known tokens; an unknown token is `{ active: false }`. */
  readonly answers: Map<string, Record<string, unknown>>;
  /** Replaces every introspection answer: a raw one, or `hang` (no answer until closed). */
  override: RawAnswer | 'hang' | undefined;
  /** Which metadata document is served (the other answers 404); `none`: both 404. */
  metadata: 'oauth' | 'openid' | 'none';
  /** Holds every introspection answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(response: ServerResponse, answer: RawAnswer): void {
  response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
}

const json = (status: number, value: unknown): RawAnswer => ({
  status,
  type: 'application/json',
  body: JSON.stringify(value),
});

/**
 * Starts an introspection endpoint on a free port of 127.0.0.1 that answers per RFC 7662 from
 * `answers` and records each request (headers and form) for the tests to assert.
 *
 * @example
 * ```ts
 * const idp = await startIntrospectionEndpoint();
 * idp.answers.set('opaque-1', { sub: 'alice', aud: 'plants' });
 * ```
 */
export async function startIntrospectionEndpoint(): Promise<IntrospectionEndpoint> {
  let gate: Promise<void> | undefined;
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    if (path.startsWith('/.well-known/')) {
      state.metadataRequests.push(path);
      const kind = path.endsWith('openid-configuration') ? 'openid' : 'oauth';
      if (state.metadata !== kind) return send(response, json(404, { error: 'not_found' }));
      return send(response, json(200, { issuer, introspection_endpoint: `${issuer}/introspect` }));
    }
    const form = await readForm(request);
    state.requests.push({ method: request.method ?? '', path, headers: request.headers, form });
    await gate;
    const { override } = state;
    if (override === 'hang') return;
    if (override !== undefined) return send(response, override);
    const claims = state.answers.get(form.get('token') ?? '');
    send(
      response,
      json(200, claims === undefined ? { active: false } : { active: true, ...claims }),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: IntrospectionEndpoint = {
    issuer,
    endpoint: `${issuer}/introspect`,
    requests: [],
    metadataRequests: [],
    answers: new Map(),
    override: undefined,
    metadata: 'oauth',
    hold() {
      let release = (): void => undefined;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/**
 * One endpoint for a test file: started before its tests, closed after them, and emptied (answers,
 * recorded requests, overrides) before each.
 *
 * @returns the endpoint, once started
 */
export function useIntrospectionEndpoint(): () => IntrospectionEndpoint {
  let idp: IntrospectionEndpoint | undefined;
  beforeAll(async () => {
    idp = await startIntrospectionEndpoint();
  });
  afterAll(() => idp?.close());
  beforeEach(() => {
    if (idp === undefined) return;
    idp.requests.length = 0;
    idp.metadataRequests.length = 0;
    idp.answers.clear();
    idp.override = undefined;
    idp.metadata = 'oauth';
  });
  return () => {
    if (idp === undefined) throw new Error('The endpoint is started in beforeAll');
    return idp;
  };
}

/** Options to change, where `undefined` removes one. */
export type OptionChanges = {
  readonly [Name in keyof TokenIntrospectionOptions]?: TokenIntrospectionOptions[Name] | undefined;
};

/**
 * `tokenIntrospection` options for the endpoint: its issuer and endpoint, `client_secret_basic`,
 * the given changes applied (an `undefined` one removes the option).
 *
 * @param idp - the endpoint
 * @param changes - the options to set or remove
 * @returns the options
 */
export function optionsFor(
  idp: IntrospectionEndpoint,
  changes: OptionChanges = {},
): TokenIntrospectionOptions {
  const all: Record<string, unknown> = {
    issuer: idp.issuer,
    endpoint: idp.endpoint,
    clientId: 'plants-api',
    clientSecret: 'a secret:with/odd+chars',
    ...changes,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  return all as unknown as TokenIntrospectionOptions;
}
