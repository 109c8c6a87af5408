import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  InsufficientScopeError,
  InvalidTokenError,
  MalformedAuthorizationError,
} from './bearer-errors';
import { setChallengeContext } from './challenges';
import { InvalidBodyError, UnsupportedMediaTypeError, type FieldIssue } from './client-errors';
import type { AnyPlantServiceError } from './error-union';
import type {
  FieldIssueCode,
  InvalidBodyCode,
  InvalidTokenCode,
  PlantServiceErrorCode,
  ServiceUnavailableCode,
} from './error-codes';
import { InternalServerError, ServiceUnavailableError } from './server-errors';

describe('error codes', () => {
  it('types each class by its own codes, so a wrong pairing does not compile', () => {
    // @ts-expect-error id_conflict is not a reason for refusing a token
    new InvalidTokenError('id_conflict', 'no');
    // @ts-expect-error a store failure is not a body error
    new InvalidBodyError('store_failed', 'no');
    // @ts-expect-error nor a 415 a time-out
    new UnsupportedMediaTypeError('store_timeout', 'no');
    // @ts-expect-error a 500 is not a 503
    new ServiceUnavailableError('internal_error', 'no');
    expectTypeOf(
      new InvalidTokenError('token_expired', 'x').code,
    ).toEqualTypeOf<InvalidTokenCode>();
    expectTypeOf<InvalidTokenCode>().toExtend<PlantServiceErrorCode>();
  });

  it("gives each class's codes as its code member's type, which users name instead of a code type", () => {
    expectTypeOf<InvalidTokenError['code']>().toEqualTypeOf<InvalidTokenCode>();
    expectTypeOf<ServiceUnavailableError['code']>().toEqualTypeOf<ServiceUnavailableCode>();
    expectTypeOf<InvalidBodyError['code']>().toEqualTypeOf<InvalidBodyCode>();
    expectTypeOf<FieldIssue['code']>().toEqualTypeOf<FieldIssueCode>();
  });

  it('narrows the union of all errors by name to each class and its codes', () => {
    const errors: AnyPlantServiceError[] = [
      new InvalidBodyError('body_duplicate_key', 'duplicate'),
      new InternalServerError('hook_failed', 'hook'),
    ];
    const codes = errors.map((error) => {
      if (error.name === 'InvalidBodyError') {
        expectTypeOf(error.issues).toEqualTypeOf<readonly FieldIssue[]>();
        return error.code;
      }
      return error.status;
    });
    expect(codes).toStrictEqual(['body_duplicate_key', 500]);
  });

  it('names the configured realm in the challenge an error carries to the host', () => {
    const error = new MalformedAuthorizationError('authorization_repeated', 'Repeated');
    expect(error.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="invalid_request", error_description="Repeated"',
    );
    setChallengeContext(error, { realm: 'plants-api', bearer: true });
    expect(error.headers['www-authenticate']).toBe(
      'Bearer realm="plants-api", error="invalid_request", error_description="Repeated"',
    );
  });

  it.each([
    ['a quote and a trailing backslash', 'Token "revoked" by admin\\'],
    ['non-ASCII', 'Jeton révoqué'],
    ['a line break', 'Revoked\r\nSet-Cookie: a=b'],
  ])(
    "leaves a verifier's description with %s out of the challenge, which cannot hold it, and keeps it in the message",
    (_case, description) => {
      const error = new InvalidTokenError('token_rejected', description);
      expect(error.headers['www-authenticate']).toBe(
        'Bearer realm="plantstore", error="invalid_token"',
      );
      expect(error.message).toBe(`The bearer token is not valid: ${description}`);
    },
  );

  it('leaves a required scope RFC 6750 does not allow out of the challenge', () => {
    expect(new InsufficientScopeError(['a"b']).headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope"',
    );
    expect(new InsufficientScopeError(['plants:write', 'a']).headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:write a"',
    );
  });
});
