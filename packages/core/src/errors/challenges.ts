// The `WWW-Authenticate` challenges of RFC 6750 §3 and RFC 9449 §7.1: what a service offers, and the
// one place the header is written.
import type { PlantServiceError } from './plant-service-error';

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

/** What a challenge offers when no service set its own: Bearer, in the default realm. */
export const DEFAULT_CHALLENGE_CONTEXT: ChallengeContext = Object.freeze({
  realm: DEFAULT_REALM,
  bearer: true,
});

// RFC 6750 §3: what `error_description` and a `scope` may hold. A verifier of your own may throw
// these errors with its own texts; one outside them is left out of the header rather than escaped
// (the grammar has no escape for them), and the answer's body still carries it.
const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/u;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/u;

function renderOne(
  scheme: AuthScheme,
  context: ChallengeContext,
  challenge: BearerChallenge | undefined,
): string {
  let header = `${scheme} realm="${context.realm}"`;
  if (challenge?.error !== undefined) header += `, error="${challenge.error}"`;
  const description = challenge?.description;
  if (description !== undefined && DESCRIPTION.test(description)) {
    header += `, error_description="${description}"`;
  }
  const scope = challenge?.scope;
  if (scope !== undefined && SCOPE.test(scope)) header += `, scope="${scope}"`;
  if (scheme === 'DPoP') header += `, algs="${context.dpopAlgorithms ?? ''}"`;
  if (context.resourceMetadata !== undefined) {
    header += `, resource_metadata="${context.resourceMetadata}"`;
  }
  return header;
}

/**
 * Renders the `WWW-Authenticate` value: the one place it is written. One challenge per accepted
 * scheme, Bearer first, then `DPoP algs="…"` (RFC 9449 §7.1); the error attributes go on the
 * challenge of the scheme the request used, or on the only one offered. The realm, algorithms and
 * metadata URL were checked at start-up; a description or scope outside RFC 6750's characters (a
 * verifier's own text) is left out, so nothing here needs escaping and nothing can break the header.
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
