import type { OutgoingHttpHeaders } from 'node:http';
import type { PlantServiceError } from '@plantstore/core';
import type { CaseHeaders, HostileRequest, RequestContext } from './case';
import type { HostileHost } from './hosts';
import { type KeepAliveClient, sendRaw } from '@plantstore/http-suite/client';

/** What one request of the catalog produced, on the wire and inside the host. */
export interface Outcome {
  /** Status of the first final (non-1xx) response; 0 when none came. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly text: string;
  /** Statuses of further responses on the same connection (pipelined requests). */
  readonly later: readonly number[];
  /** What `onRejected` received during the case. */
  readonly rejected: readonly PlantServiceError[];
  /** What `onError` received during the case. */
  readonly errors: readonly unknown[];
  /** How many plants `onCreated` received during the case. */
  readonly created: number;
  /** Errors that reached the host's own error handling, and requests passed on to it. */
  readonly hostEvents: readonly unknown[];
  readonly sizeBefore: number;
  readonly sizeAfter: number;
  /** Server-side CPU of the requests the app finished during the case, in microseconds. */
  readonly cpuMicros: readonly number[];
}

/** Merges case headers over the defaults; `null` removes a default. */
export function mergeHeaders(
  defaults: CaseHeaders,
  overrides: CaseHeaders = {},
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries({ ...defaults, ...overrides })) {
    if (value !== null) headers[name] = typeof value === 'string' ? value : [...value];
  }
  return headers;
}

/**
 * Waits until the route has decided every request it started (after a raw exchange Node's parser
 * may have closed the socket while the route was still reading) and the host's records stop
 * changing (the response's `close`, which ends the CPU measurement, comes just after the client
 * has the body).
 */
async function settle(host: HostileHost, raw: boolean): Promise<void> {
  const { record } = host;
  const mark = () => record.rejected.length + record.errors.length + record.cpuMicros.length;
  const pause = raw
    ? () => new Promise((resolve) => setTimeout(resolve, 2))
    : () => new Promise((resolve) => setImmediate(resolve));
  let last = -1;
  for (let round = 0; round < 1000 && (record.inFlight > 0 || mark() !== last); round += 1) {
    last = mark();
    await pause();
  }
}

/**
 * Sends one request of the catalog and gathers what it did: the answer, the hooks' calls, the
 * store before and after, the server-side CPU. Requests run one at a time, so everything recorded
 * between start and end belongs to this one.
 *
 * @param host - the host under test
 * @param client - a keep-alive client of that host
 * @param request - the case's request
 * @param context - the valid token and the host's address
 * @returns the outcome
 */
export async function runCase(
  host: HostileHost,
  client: KeepAliveClient,
  request: HostileRequest,
  context: RequestContext,
): Promise<Outcome> {
  const { record, store } = host;
  const marks = {
    rejected: record.rejected.length,
    errors: record.errors.length,
    created: record.created.length,
    hostErrors: record.hostErrors.length,
    passedOn: record.passedOn.length,
    cpu: record.cpuMicros.length,
  };
  const sizeBefore = store.size;
  let status = 0;
  let headers: Outcome['headers'] = {};
  let text = '';
  let later: number[] = [];
  if (request.kind === 'http') {
    const reply = await client.send({
      path: request.path ?? context.path,
      headers: mergeHeaders(
        { authorization: `Bearer ${context.token}`, 'content-type': 'application/json' },
        request.headers,
      ),
      body: request.body,
    });
    ({ status, headers, text } = reply);
  } else {
    const exchange = await sendRaw(host.port, request.bytes(context), {
      endAfterWrite: request.endAfterWrite ?? false,
    });
    const finals = exchange.responses.filter((response) => response.status >= 200);
    const [first, ...rest] = finals;
    if (first !== undefined) ({ status, headers, text } = first);
    later = rest.map((response) => response.status);
  }
  await settle(host, request.kind === 'raw');
  return {
    status,
    headers,
    text,
    later,
    rejected: record.rejected.slice(marks.rejected),
    errors: record.errors.slice(marks.errors),
    created: record.created.length - marks.created,
    hostEvents: [
      ...record.hostErrors.slice(marks.hostErrors),
      ...record.passedOn.slice(marks.passedOn),
    ],
    sizeBefore,
    sizeAfter: store.size,
    cpuMicros: record.cpuMicros.slice(marks.cpu),
  };
}
