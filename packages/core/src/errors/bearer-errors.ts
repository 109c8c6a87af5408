import type {
  InsufficientScopeCode,
  InvalidTokenCode,
  MalformedAuthorizationCode,
  MissingTokenCode,
} from './error-codes';
import { PlantStoreError, type PlantStoreErrorOptions } from './plant-store-error';

/** Parameters of an RFC 6750 `WWW-Authenticate: Bearer` challenge. */
export interface BearerChallenge {
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  readonly description?: string;
  readonly scope?: string;
}

/** The realm named in challenges when the service does not set its own. */
export const DEFAULT_REALM = 'plantstore';

/**
 * Renders an RFC 6750 challenge: the one place a `WWW-Authenticate` value is written. Descriptions
 * are our own fixed texts and the realm and scopes were checked at start-up, so nothing here needs
 * escaping and nothing a client sent can get in.
 *
 * @param realm - the service's realm
 * @param challenge - the error attributes
 * @returns the header value
 * @example
 * ```ts
 * renderBearerChallenge('plantstore', { error: 'invalid_token', description: 'The token has expired' });
 * // 'Bearer realm="plantstore", error="invalid_token", error_description="The token has expired"'
 * ```
 */
export function renderBearerChallenge(realm: string, challenge: BearerChallenge): string {
  let header = `Bearer realm="${realm}"`;
  if (challenge.error !== undefined) header += `, error="${challenge.error}"`;
  if (challenge.description !== undefined) {
    header += `, error_description="${challenge.description}"`;
  }
  if (challenge.scope !== undefined) header += `, scope="${challenge.scope}"`;
  return header;
}

/** Errors that answer with a `WWW-Authenticate: Bearer` challenge. */
export abstract class BearerError<
  Code extends
    MalformedAuthorizationCode | MissingTokenCode | InvalidTokenCode | InsufficientScopeCode,
> extends PlantStoreError<Code> {
  abstract readonly challenge: BearerChallenge;
  /**
   * The realm the challenge names: the service sets its configured realm on every error it answers
   * with, so an error that reaches the host's error handler names the same realm as the answer.
   */
  readonly realm: string = DEFAULT_REALM;

  override get headers(): Readonly<Record<string, string>> {
    return { 'www-authenticate': renderBearerChallenge(this.realm, this.challenge) };
  }
}

/**
 * Names the service's realm in an error's challenge. Bearer errors are made fresh for each request,
 * so setting it never changes another request's answer.
 *
 * @param error - any error the service answers with
 * @param realm - the configured realm
 */
export function setChallengeRealm(error: PlantStoreError, realm: string): void {
  // By shape, not instanceof: a verifier may throw the errors of another installed copy.
  if ('challenge' in error && 'realm' in error && error.realm !== realm) {
    Object.defineProperty(error, 'realm', { value: realm, enumerable: true });
  }
}

/** 400 `invalid_request`: the `Authorization` header is there but is not one well-formed bearer credential. */
export class MalformedAuthorizationError extends BearerError<MalformedAuthorizationCode> {
  override readonly name = 'MalformedAuthorizationError';
  readonly challenge: BearerChallenge;

  constructor(code: MalformedAuthorizationCode, message: string, options?: PlantStoreErrorOptions) {
    super(400, code, message, options);
    this.challenge = { error: 'invalid_request', description: message };
  }
}

/** 401 without an error attribute: the request carried no bearer token (RFC 6750 §3.1). */
export class MissingTokenError extends BearerError<MissingTokenCode> {
  override readonly name = 'MissingTokenError';
  readonly challenge: BearerChallenge = {};

  constructor(message = 'A bearer token is required in the Authorization header.') {
    super(401, 'token_missing', message);
  }
}

/** 401 `invalid_token`: a token was sent and failed verification. The why stays in `cause`. */
export class InvalidTokenError extends BearerError<InvalidTokenCode> {
  override readonly name = 'InvalidTokenError';
  readonly challenge: BearerChallenge;

  constructor(code: InvalidTokenCode, description: string, options?: PlantStoreErrorOptions) {
    super(401, code, `The bearer token is not valid: ${description}`, options);
    this.challenge = { error: 'invalid_token', description };
  }
}

/** 403 `insufficient_scope`: the token is valid but lacks a scope the route requires. */
export class InsufficientScopeError extends BearerError<InsufficientScopeCode> {
  override readonly name = 'InsufficientScopeError';
  readonly challenge: BearerChallenge;

  constructor(requiredScopes: readonly string[]) {
    const scope = requiredScopes.join(' ');
    super(403, 'scope_insufficient', `The bearer token lacks a required scope: ${scope}.`);
    this.challenge = {
      error: 'insufficient_scope',
      description: 'The token lacks a required scope',
      scope,
    };
  }
}
