import { type PlantServiceError } from '../errors/plant-service-error';
import { PUBLIC_MESSAGES } from '../errors/public-messages';
import type { Plant } from '../plant/plant';
import type { Principal } from '../auth/principal';
import type { PlantAnswer } from '../http/request';

// RFC 6750 §5.3: answers that depend on credentials are not cached, and say what they vary on.
const SUCCESS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  vary: 'Authorization',
});

// Text JSON.stringify copies as it is: no quote, backslash, control character (it escapes those below
// U+0020; the rest only send a body to JSON.stringify) or lone surrogate (by code point, so a
// surrogate pair, which it copies, passes).
const VERBATIM = /^[^"\\\p{Cc}\p{Cs}]*$/u;

// A 200 that created nothing says so, as Stripe and the IETF idempotency-key draft's users do.
const REPLAY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SUCCESS_HEADERS,
  'idempotent-replayed': 'true',
});

/**
 * The 200 answer: the plant without its id, `tag` only when it has one, and
 * `Idempotent-Replayed: true` when the plant was already stored by this caller.
 *
 * @param plant - the stored plant
 * @param principal - who made the request, handed on to the host
 * @param replayed - nothing was created now: the caller's earlier create is answered again
 * @returns the answer to write
 */
export function plantAnswer(plant: Plant, principal?: Principal, replayed = false): PlantAnswer {
  const { name, tag } = plant;
  // Text JSON.stringify would copy as it is goes into the body as it is: a quarter of the time of
  // stringifying an object, byte for byte the same body.
  const body =
    VERBATIM.test(name) && (tag === undefined || VERBATIM.test(tag))
      ? tag === undefined
        ? `{"name":"${name}"}`
        : `{"name":"${name}","tag":"${tag}"}`
      : tag === undefined
        ? JSON.stringify({ name })
        : JSON.stringify({ name, tag });
  return { status: 200, headers: replayed ? REPLAY_HEADERS : SUCCESS_HEADERS, body, principal };
}

/**
 * The answer for an error, in the Error shape `{error, message}`. 5xx answers carry a generic
 * message: internals go to `onError`, never to the client.
 *
 * @param error - what went wrong, its challenge already in the service's realm
 * @param principal - who made the request, when the token was verified
 * @param bodyUnread - the request's body is still on the connection, so the connection must close
 * @param internalMessage - what a 500 says: the plant route's by default, a guard's own
 * @returns the answer to write
 */
export function errorAnswer(
  error: PlantServiceError,
  principal?: Principal,
  bodyUnread = false,
  internalMessage: string = PUBLIC_MESSAGES[500],
): PlantAnswer {
  const headers: Record<string, string> = { ...SUCCESS_HEADERS, ...error.headers };
  // The client is told to hang up: the rest of its body is not going to be read.
  if (bodyUnread || error.status === 408 || error.status === 413) headers.connection = 'close';
  const message = error.expose
    ? error.message
    : error.status === 503
      ? PUBLIC_MESSAGES[503]
      : internalMessage;
  const body = JSON.stringify({ error: error.status, message });
  return { status: error.status, headers, body, principal };
}
