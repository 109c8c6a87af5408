import type {
  InsufficientScopeCode,
  InvalidDpopProofCode,
  InvalidTokenCode,
  MalformedAuthorizationCode,
  MissingTokenCode,
  UseDpopNonceCode,
} from './error-codes';
import { PlantServiceError, type PlantServiceErrorOptions } from './plant-service-error';

/** An HTTP authentication scheme the route can accept. */
export type AuthScheme = 'Bearer' | 'DPoP';

/** The error attributes of a challenge (RFC 6750 §3, RFC 9449 §7.1). */
export interface BearerChallenge {
  readonly error?:
    | 'invalid_request'
    | 'invalid_token'
    | 'insufficient_scope'
    | 'invalid_dpop_proof'
    | 'use_dpop_nonce';
  readonly description?: string;
  readonly scope?: string;
}

/**
 * What a service's challenges offer, fixed at start-up, and the scheme a request used. Every value
 * was checked when the service was created, so rendering needs no escaping.
 */
export interface ChallengeContext {
  readonly realm: string;
  /** Plain Bearer tokens are accepted: a `Bearer` challenge is offered. */
  readonly bearer: boolean;
  /** DPoP is accepted: a `DPoP` challenge is offered, with these space-separated `algs`. */
  readonly dpopAlgorithms?: string | undefined;
  /** The RFC 9728 metadata URL, named in every challenge as `resource_metadata`. */
  readonly resourceMetadata?: string | undefined;
  /** The scheme the request's credentials used: the error attributes go on its challenge. */
  readonly scheme?: AuthScheme | undefined;
}

/** The realm named in challenges when the service does not set its own. */
export const DEFAULT_REALM = 'plantstore';

const DEFAULT_CONTEXT: ChallengeContext = Object.freeze({ realm: DEFAULT_REALM, bearer: true });

function renderOne(
  scheme: AuthScheme,
  context: ChallengeContext,
  challenge: BearerChallenge | undefined,
): string {
  let header = `${scheme} realm="${context.realm}"`;
  if (challenge?.error !== undefined) header += `, error="${challenge.error}"`;
  if (challenge?.description !== undefined) {
    header += `, error_description="${challenge.description}"`;
  }
  if (challenge?.scope !== undefined) header += `, scope="${challenge.scope}"`;
  if (scheme === 'DPoP') header += `, algs="${context.dpopAlgorithms ?? ''}"`;
  if (context.resourceMetadata !== undefined) {
    header += `, resource_metadata="${context.resourceMetadata}"`;
  }
  return header;
}

/**
 * Renders the `WWW-Authenticate` value: the one place it is written. One challenge per accepted
 * scheme, Bearer first, then `DPoP algs="…"` (RFC 9449 §7.1); the error attributes go on the
 * challenge of the scheme the request used, or on the only one offered. Descriptions are our own
 * fixed texts and everything else was checked at start-up, so nothing here needs escaping and
 * nothing a client sent can get in.
 *
 * @param context - what the service offers, and the scheme the request used
 * @param challenge - the error attributes; none when no credentials were sent
 * @returns the header value
 * @example
 * ```ts
 * renderChallenges({ realm: 'plantstore', bearer: true }, { error: 'invalid_token', description: 'The token has expired' });
 * // 'Bearer realm="plantstore", error="invalid_token", error_description="The token has expired"'
 * ```
 */
export function renderChallenges(context: ChallengeContext, challenge: BearerChallenge): string {
  const dpop = context.dpopAlgorithms !== undefined;
  const onDpop = dpop && (context.scheme === 'DPoP' || !context.bearer);
  const bearer =
    context.bearer || !dpop ? renderOne('Bearer', context, onDpop ? undefined : challenge) : '';
  if (!dpop) return bearer;
  const dpopChallenge = renderOne('DPoP', context, onDpop ? challenge : undefined);
  return bearer === '' ? dpopChallenge : `${bearer}, ${dpopChallenge}`;
}

/** Errors that answer with a `WWW-Authenticate` challenge (Bearer, DPoP or both). */
export abstract class BearerError<
  Code extends
    | MalformedAuthorizationCode
    | MissingTokenCode
    | InvalidTokenCode
    | InvalidDpopProofCode
    | UseDpopNonceCode
    | InsufficientScopeCode,
> extends PlantServiceError<Code> {
  abstract readonly challenge: BearerChallenge;
  /**
   * What the challenge offers: the service sets its own on every error it answers with, so an error
   * that reaches the host's error handler names the same realm and schemes as the answer.
   */
  readonly challengeContext: ChallengeContext = DEFAULT_CONTEXT;

  /** The realm the challenge names. */
  get realm(): string {
    return this.challengeContext.realm;
  }

  override get headers(): Readonly<Record<string, string>> {
    return { 'www-authenticate': renderChallenges(this.challengeContext, this.challenge) };
  }
}

/**
 * Names the service's realm and schemes in an error's challenge. Bearer errors are made fresh for
 * each request, so setting it never changes another request's answer.
 *
 * @param error - any error the service answers with
 * @param context - the service's challenge context, with the scheme the request used
 */
export function setChallengeContext(error: PlantServiceError, context: ChallengeContext): void {
  // By shape, not instanceof: a verifier may throw the errors of another installed copy.
  if ('challenge' in error && 'challengeContext' in error && error.challengeContext !== context) {
    Object.defineProperty(error, 'challengeContext', { value: context });
  }
}

/** 400 `invalid_request`: the credentials are ambiguous (a repeated `Authorization`, a proof beside Bearer). */
export class MalformedAuthorizationError extends BearerError<MalformedAuthorizationCode> {
  override readonly name = 'MalformedAuthorizationError';
  readonly challenge: BearerChallenge;

  constructor(
    code: MalformedAuthorizationCode,
    message: string,
    options?: PlantServiceErrorOptions,
  ) {
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

  constructor(code: InvalidTokenCode, description: string, options?: PlantServiceErrorOptions) {
    super(401, code, `The bearer token is not valid: ${description}`, options);
    this.challenge = { error: 'invalid_token', description };
  }
}

/** 401 `invalid_dpop_proof` (RFC 9449 §7.1): the DPoP proof is missing or fails a check. */
export class InvalidDpopProofError extends BearerError<InvalidDpopProofCode> {
  override readonly name = 'InvalidDpopProofError';
  readonly challenge: BearerChallenge;

  constructor(code: InvalidDpopProofCode, description: string, options?: PlantServiceErrorOptions) {
    super(401, code, `The DPoP proof is not valid: ${description}`, options);
    this.challenge = { error: 'invalid_dpop_proof', description };
  }
}

/**
 * 401 `use_dpop_nonce` (RFC 9449 §9): the proof must carry the nonce sent in `DPoP-Nonce`; the client
 * signs a new proof with it and retries.
 */
export class UseDpopNonceError extends BearerError<UseDpopNonceCode> {
  override readonly name = 'UseDpopNonceError';
  readonly challenge: BearerChallenge;
  /** The nonce the next proof must carry. */
  readonly nonce: string;

  constructor(code: UseDpopNonceCode, nonce: string) {
    const description =
      code === 'dpop_nonce_missing'
        ? 'The resource server requires a nonce in the DPoP proof'
        : 'The DPoP proof nonce is not current';
    super(401, code, `${description}.`);
    this.nonce = nonce;
    this.challenge = { error: 'use_dpop_nonce', description };
  }

  override get headers(): Readonly<Record<string, string>> {
    return { ...super.headers, 'dpop-nonce': this.nonce };
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
