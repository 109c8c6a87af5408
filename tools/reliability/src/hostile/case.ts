import type { PlantServiceErrorCode } from '@plantstore/core';
import type { RawTarget } from '@plantstore/http-suite/client';

/** The groups of the body and header catalog, in the order the docs list them. */
export const CASE_GROUPS = [
  'framing',
  'media types',
  'encodings',
  'UTF-8',
  'JSON syntax',
  'numbers',
  'duplicate keys',
  'depth',
  'prototype keys',
  'sizes',
  'schema',
] as const;

/** One group of {@link CASE_GROUPS}. */
export type CaseGroup = (typeof CASE_GROUPS)[number];

/** Header values of a case; an array sends the header once per value, `null` leaves it out. */
export type CaseHeaders = Readonly<Record<string, string | readonly string[] | null>>;

/** What a case needs to build its request at run time: the valid token and where the route is. */
export interface RequestContext extends RawTarget {
  /** A token the service accepts, with the required scope. */
  readonly token: string;
}

/**
 * A request sent with `node:http` on a keep-alive connection. Headers are merged over the defaults
 * (`Authorization: Bearer <valid token>`, `Content-Type: application/json`); `Content-Length` is
 * set by the client from the body.
 */
export interface HttpRequest {
  readonly kind: 'http';
  readonly headers?: CaseHeaders;
  readonly body?: string | Uint8Array;
  /** Path and query after the mount point. Default `/plants`. */
  readonly path?: string;
}

/** A request written byte for byte to a fresh socket, for framing no HTTP client would produce. */
export interface RawRequest {
  readonly kind: 'raw';
  /** The bytes of the request: request line, headers, and whatever body. */
  readonly bytes: (context: RequestContext) => string | Uint8Array;
  /** Half-close the socket after writing (the client stops sending). Default false. */
  readonly endAfterWrite?: boolean;
}

/** A request of the catalog. */
export type HostileRequest = HttpRequest | RawRequest;

/** A plant a 200 must have stored, exactly. */
export interface StoredPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/**
 * What the answer must be. `by: 'route'` is the route's own answer (the contract headers, the Error
 * shape, the reason code its `onRejected` hook saw); `by: 'node'` is Node's HTTP parser answering
 * with a bare error and closing the connection, before the app runs or on bytes the request did not
 * frame properly while the route was still reading it (the route's own answer is then lost; it must
 * still store nothing and fail with no 5xx).
 */
export type Expectation =
  | { readonly by: 'route'; readonly status: 200; readonly stored: StoredPlant }
  | {
      readonly by: 'route';
      readonly status: 400 | 401 | 403 | 408 | 409 | 413 | 415;
      readonly code: PlantServiceErrorCode;
    }
  | { readonly by: 'node'; readonly status: 400 | 413 | 431 };

/** A known difference between what the route does and what the contract says it must do. */
export interface Deviation {
  /** The answer the contract asks for. */
  readonly contract: Expectation;
  /** What is wrong, where, and the proposed fix; the docs list these. */
  readonly why: string;
}

/** One entry of the catalog. */
export interface HostileCase {
  readonly group: CaseGroup;
  /** A sentence naming the input, unique in the catalog. */
  readonly name: string;
  readonly request: HostileRequest;
  readonly expect: Expectation;
  /**
   * The refusals of the responses after the first, for raw requests whose bytes hold a second,
   * pipelined request. Default none: exactly one response.
   */
  readonly pipelined?: readonly { readonly status: number; readonly code: PlantServiceErrorCode }[];
  /**
   * Set when `expect` records today's behaviour although the contract asks for another answer. The
   * case then fails as soon as the behaviour changes, and the fix moves `contract` into `expect`.
   */
  readonly deviation?: Deviation;
}

/**
 * The refusal a case expects.
 *
 * @param status - the HTTP status
 * @param code - the reason code of docs/reference/errors.md
 * @returns the expectation
 */
export function refused(
  status: 400 | 401 | 403 | 408 | 409 | 413 | 415,
  code: PlantServiceErrorCode,
): Expectation {
  return { by: 'route', status, code };
}

/**
 * The success a case expects: 200 and exactly this plant in the store.
 *
 * @param id - the id, exact
 * @param name - the name, exact
 * @param tag - the tag, if any
 * @returns the expectation
 */
export function created(id: bigint, name: string, tag?: string): Expectation {
  return { by: 'route', status: 200, stored: tag === undefined ? { id, name } : { id, name, tag } };
}

/**
 * A case sent with `node:http`: the default headers (valid token, `application/json`) with `headers`
 * merged over them.
 *
 * @param group - the catalog group
 * @param name - the case's sentence
 * @param body - the body, text or bytes
 * @param expect - the answer it must get
 * @param headers - headers to add, replace (a value) or remove (`null`)
 * @returns the case
 */
export function httpCase(
  group: CaseGroup,
  name: string,
  body: string | Uint8Array,
  expect: Expectation,
  headers?: CaseHeaders,
): HostileCase {
  return {
    group,
    name,
    request: headers === undefined ? { kind: 'http', body } : { kind: 'http', body, headers },
    expect,
  };
}

/**
 * A case written byte for byte to a fresh socket.
 *
 * @param group - the catalog group
 * @param name - the case's sentence
 * @param bytes - the request, built from the valid token and the host's address
 * @param expect - the answer it must get
 * @param extra - half-close after writing, the refusals of pipelined requests, a known deviation
 * @returns the case
 */
export function rawCase(
  group: CaseGroup,
  name: string,
  bytes: RawRequest['bytes'],
  expect: Expectation,
  extra: {
    readonly endAfterWrite?: boolean;
    readonly pipelined?: HostileCase['pipelined'];
    readonly deviation?: Deviation;
  } = {},
): HostileCase {
  const { endAfterWrite, pipelined, deviation } = extra;
  return {
    group,
    name,
    request:
      endAfterWrite === undefined ? { kind: 'raw', bytes } : { kind: 'raw', bytes, endAfterWrite },
    expect,
    ...(pipelined === undefined ? {} : { pipelined }),
    ...(deviation === undefined ? {} : { deviation }),
  };
}

/** One row of a sample table: the sentence, the body, the answer, and headers over the defaults. */
export type Sample = readonly [
  what: string,
  body: string | Uint8Array,
  expect: Expectation,
  headers?: CaseHeaders,
];

/**
 * The cases of a sample table, sent with `node:http`.
 *
 * @param group - the catalog group
 * @param rows - the samples
 * @returns the cases
 */
export function sampleCases(group: CaseGroup, rows: readonly Sample[]): HostileCase[] {
  return rows.map(([what, body, expect, headers]) => httpCase(group, what, body, expect, headers));
}
