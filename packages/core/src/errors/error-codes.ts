// Every stable reason a request can be refused or fail with, grouped by the error class that
// carries it: a class accepts only its own codes, so a wrong pairing does not compile. Observers,
// logs and metrics key on these; they never change meaning once released.

/**
 * 400 with `error="invalid_request"`: the request repeats the `Authorization` field, or sends a DPoP
 * proof beside a Bearer token (RFC 9449 §7.2: the client meant DPoP but said Bearer).
 */
export type MalformedAuthorizationCode = 'authorization_repeated' | 'dpop_proof_with_bearer';

/** 401 with a bare challenge: no bearer credentials were sent at all. */
export type MissingTokenCode = 'token_missing';

/** 401 `invalid_token`: a token was sent and failed verification. */
export type InvalidTokenCode =
  | 'authorization_malformed'
  | 'token_malformed'
  | 'token_too_large'
  | 'token_expired'
  | 'token_not_yet_valid'
  | 'token_too_old'
  | 'signature_invalid'
  | 'algorithm_not_allowed'
  | 'issuer_mismatch'
  | 'audience_mismatch'
  /** The token's `client_id` (or `azp`) is not an accepted client. */
  | 'client_mismatch'
  | 'claim_missing'
  | 'claim_invalid'
  | 'key_not_found'
  | 'token_type_mismatch'
  | 'token_rejected'
  | 'dpop_required'
  | 'token_dpop_bound'
  | 'token_not_dpop_bound'
  /** RFC 8705: the request's client certificate is missing or is not the one the token is bound to. */
  | 'certificate_mismatch'
  /** `mtls.required`: the token is not bound to a client certificate. */
  | 'mtls_required'
  /** The token is bound to a client certificate, and `mtls` is off. */
  | 'token_certificate_bound'
  /** RFC 7662: the authorization server's introspection answered `active: false`. */
  | 'token_inactive'
  /** The service keeps ids per tenant, and the token names none. */
  | 'tenant_missing'
  /** The token's tenant is not 1–128 printable ASCII characters without spaces or braces. */
  | 'tenant_invalid';

/** 401 `invalid_dpop_proof` (RFC 9449 §7.1): the DPoP proof is missing or fails a check. */
export type InvalidDpopProofCode =
  | 'dpop_proof_missing'
  | 'dpop_proof_repeated'
  | 'dpop_proof_malformed'
  | 'dpop_proof_type_mismatch'
  | 'dpop_proof_algorithm_not_allowed'
  | 'dpop_proof_key_invalid'
  | 'dpop_proof_signature_invalid'
  | 'dpop_proof_claim_invalid'
  | 'dpop_proof_method_mismatch'
  | 'dpop_proof_url_mismatch'
  | 'dpop_proof_expired'
  | 'dpop_proof_not_yet_valid'
  | 'dpop_proof_token_hash_mismatch'
  | 'dpop_proof_key_mismatch'
  | 'dpop_proof_replayed';

/** 401 `use_dpop_nonce` (RFC 9449 §9): the proof lacks the server's current nonce. */
export type UseDpopNonceCode = 'dpop_nonce_missing' | 'dpop_nonce_invalid';

/** 403 `insufficient_scope`. */
export type InsufficientScopeCode = 'scope_insufficient';

/**
 * 403 without a challenge: a guard's claim check refused a valid token. Not `insufficient_scope`,
 * which RFC 6750 keeps for scopes: a client cannot fix a claim by asking for another scope.
 */
export type ClaimMismatchCode = 'claim_mismatch';

/** 415: the media type, or a content or transfer coding. */
export type UnsupportedMediaTypeCode = 'media_type_unsupported' | 'content_encoding_unsupported';

/** 413. */
export type PayloadTooLargeCode = 'body_too_large';

/** 408. */
export type RequestTimeoutCode = 'body_timeout';

/** 400: what is wrong with a field of a body that is one JSON object. */
export type FieldIssueCode =
  | 'schema_mismatch'
  | 'field_missing'
  | 'id_not_integer'
  | 'id_out_of_range'
  | 'string_contains_nul';

/** 400: the body is not one strict JSON object, or fails the schema. */
export type InvalidBodyCode =
  | 'body_aborted'
  | 'body_empty'
  | 'body_invalid_utf8'
  | 'body_decoded_by_host'
  | 'body_not_json'
  | 'body_not_object'
  | 'body_too_deep'
  | 'body_duplicate_key'
  | 'body_forbidden_key'
  | 'body_lone_surrogate'
  | FieldIssueCode;

/** 404, only where the route answers on its own (the fetch and node entries). */
export type NotFoundCode = 'route_not_found';

/** 405, likewise. */
export type MethodNotAllowedCode = 'method_not_allowed';

/** 409. */
export type ConflictCode = 'id_conflict';

/** 503: the identity provider's key set or the store cannot be reached. */
export type ServiceUnavailableCode =
  | 'jwks_unavailable'
  | 'store_timeout'
  | 'store_unavailable'
  | 'replay_store_unavailable'
  /**
   * RFC 7662: the introspection endpoint (or the metadata naming it) cannot be reached, is slow,
   * or answered something other than a JSON object.
   */
  | 'introspection_unavailable';

/** 500. */
export type InternalServerErrorCode =
  | 'store_failed'
  | 'auth_failed'
  | 'hook_failed'
  | 'internal_error'
  /** The host's JSON parser read the body before the route: the server's set-up, not the client's. */
  | 'body_parsed_by_host';

/** Every stable reason code. */
export type PlantServiceErrorCode =
  | MalformedAuthorizationCode
  | MissingTokenCode
  | InvalidTokenCode
  | InvalidDpopProofCode
  | UseDpopNonceCode
  | InsufficientScopeCode
  | ClaimMismatchCode
  | UnsupportedMediaTypeCode
  | PayloadTooLargeCode
  | RequestTimeoutCode
  | InvalidBodyCode
  | NotFoundCode
  | MethodNotAllowedCode
  | ConflictCode
  | ServiceUnavailableCode
  | InternalServerErrorCode;
