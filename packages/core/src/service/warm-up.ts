import { jwtVerify, SignJWT } from 'jose';
import { readCredentials } from '../auth/read-credentials';
import { assertCompactJws } from '../auth/jwt/compact-jws';
import { principalOf } from '../auth/jwt/principal-of';
import { DEFAULT_SCOPE_CLAIMS } from '../auth/jwt/scopes';
import { assertTokenType, DEFAULT_TOKEN_TYPES } from '../auth/jwt/token-type';
import { assertJsonBody } from '../body/content-type';
import { type BodyLimits, parsePlantBody } from '../body/read-plant-body';
import { deadlineList } from '../common/deadline-list';
import { plantAnswer } from '../http/answer';
import { headerReader, type PlantRequest } from '../http/request';
import { insertPlant } from '../plant/insert-plant';
import type { PlantStore } from '../plant/store';

// A request as a client sends it, with a token of the right shape that is never verified.
const SAMPLE: PlantRequest = {
  method: 'POST',
  path: '/plants',
  headers: {
    authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'content-type': 'application/json; charset=utf-8',
  },
  body: new TextEncoder().encode('{"id":9007199254740993,"name":"Monstera","tag":"aroid"}'),
};

// Takes every plant and keeps none: the insert's own steps run, the service's store is never called.
const NO_STORE: PlantStore = { insert: () => Promise.resolve({ created: true }) };

/**
 * jose's whole success path (decoding, the signature, the claims) and the principal built from its
 * payload, on a token signed and verified with a key made for this and then dropped: none of the
 * service's keys or key sets is touched, so this serves a JWKS as well as a secret.
 */
async function warmTokenPath(): Promise<void> {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const token = await new SignJWT({ scope: 'plants:write' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject('warm-up')
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(key);
  assertCompactJws(token);
  const { payload, protectedHeader } = await jwtVerify(token, key, {
    algorithms: ['HS256'],
    clockTolerance: 5,
  });
  assertTokenType(protectedHeader.typ, DEFAULT_TOKEN_TYPES);
  principalOf(payload, DEFAULT_SCOPE_CLAIMS);
}

/**
 * Runs the route's own steps once on a sample request: the credentials read, a token's verification
 * (on a throwaway key), the content type, the strict body reader, validation, the insert's time-out
 * handling (on a store that keeps nothing) and the answer. V8 compiles a function when it first runs
 * it, so without this the first client of a new process pays for compiling the whole route (about 2
 * ms of its first request here). Nothing of the service is verified, stored or observed: its auth,
 * store, hooks and diagnostics channel are never called.
 *
 * @param limits - the service's body limits
 * @returns when the steps have run; it never rejects
 * @example
 * ```ts
 * setTimeout(() => void warmUp(bodyLimits), 0);
 * ```
 */
export async function warmUp(limits: BodyLimits): Promise<void> {
  try {
    const headers = headerReader(SAMPLE.headers);
    readCredentials(headers('authorization'), false);
    assertJsonBody(headers('content-type'), headers('content-encoding'), undefined);
    const [plant] = await Promise.all([parsePlantBody(SAMPLE, headers, limits), warmTokenPath()]);
    const deadlines = deadlineList();
    const principal = Object.freeze({ subject: undefined, scopes: [], claims: {} });
    await insertPlant(NO_STORE, plant, principal, { timeoutMs: 1000, retryAfter: 1, deadlines });
    deadlines.stop();
    plantAnswer(plant, principal);
  } catch {
    // A warm-up that fails has only missed its purpose: the first request pays, as without it.
  }
}

/**
 * Schedules {@link warmUp} for the next turn of the event loop, without keeping a process alive
 * that has nothing else to do.
 *
 * @param limits - the service's body limits
 * @example
 * ```ts
 * scheduleWarmUp(bodyLimits); // in createPlantService, once
 * ```
 */
export function scheduleWarmUp(limits: BodyLimits): void {
  try {
    const timer = setTimeout(() => void warmUp(limits), 0);
    if (typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
  } catch {
    // Some runtimes refuse timers outside a request (Cloudflare Workers at module scope): a service
    // created there simply compiles its route on the first request.
  }
}
