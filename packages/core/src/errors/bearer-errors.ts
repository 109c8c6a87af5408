import type {
  InsufficientScopeCode,
  InvalidDpopProofCode,
  InvalidTokenCode,
  MalformedAuthorizationCode,
  MissingTokenCode,
  UseDpopNonceCode,
} from './error-codes';
import {
  type BearerChallenge,
  type ChallengeContext,
  DEFAULT_CHALLENGE_CONTEXT,
  renderChallenges,
} from './challenges';
import { PlantServiceError, type PlantServiceErrorOptions } from './plant-service-error';

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
  readonly challengeContext: ChallengeContext = DEFAULT_CHALLENGE_CONTEXT;

  /** The realm the challenge names. */
  get realm(): string {
    return this.challengeContext.realm;
  }

  override get headers(): Readonly<Record<string, string>> {
    return { 'www-authenticate': renderChallenges(this.challengeContext, this.challenge) };
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

/**
 * A 401 for a credential that was sent and failed a check: the challenge's error attribute names the
 * credential (`invalid_token`, `invalid_dpop_proof`), its description the check, and the message
 * both. Not exported: the two classes below are the public faces.
 */
abstract class FailedCredentialError<
  Code extends InvalidTokenCode | InvalidDpopProofCode,
> extends BearerError<Code> {
  readonly challenge: BearerChallenge;

  protected constructor(
    credential: { readonly error: 'invalid_token' | 'invalid_dpop_proof'; readonly what: string },
    code: Code,
    description: string,
    options?: PlantServiceErrorOptions,
  ) {
    super(401, code, `${credential.what} is not valid: ${description}`, options);
    this.challenge = { error: credential.error, description };
  }
}

const BEARER_TOKEN = { error: 'invalid_token', what: 'The bearer token' } as const;
const DPOP_PROOF = { error: 'invalid_dpop_proof', what: 'The DPoP proof' } as const;

/** 401 `invalid_token`: a token was sent and failed verification. The why stays in `cause`. */
export class InvalidTokenError extends FailedCredentialError<InvalidTokenCode> {
  override readonly name = 'InvalidTokenError';

  constructor(code: InvalidTokenCode, description: string, options?: PlantServiceErrorOptions) {
    super(BEARER_TOKEN, code, description, options);
  }
}

/** 401 `invalid_dpop_proof` (RFC 9449 §7.1): the DPoP proof is missing or fails a check. */
export class InvalidDpopProofError extends FailedCredentialError<InvalidDpopProofCode> {
  override readonly name = 'InvalidDpopProofError';

  constructor(code: InvalidDpopProofCode, description: string, options?: PlantServiceErrorOptions) {
    super(DPOP_PROOF, code, description, options);
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
