import { describe, expect, it } from 'vitest';
import { jwtBearer } from './jwt/jwt-bearer';
import { dpopBinding } from './dpop/dpop-binding';
import { certificateBinding } from './mtls/mtls-options';
import { memoryReplayStore } from './dpop/memory-replay-store';

const secret = 'a-secret-that-is-at-least-32-bytes-long';
// The options as a configuration written for the API before 0.1 holds them: the types refuse
// them, a JavaScript caller or a cast does not.
const make = (extra: Record<string, unknown>) => () => jwtBearer({ secret, ...extra });

describe('the dpop and mtls options of jwtBearer, before 0.1 and now', () => {
  it('refuses dpop: true at start-up, naming the function to import', () => {
    expect(make({ dpop: true })).toThrow(
      new TypeError(
        'jwtBearer: option "dpop" must be made by dpopBinding(): import { dpopBinding } from ' +
          "'@plantstore/core' and pass `dpop: dpopBinding()`; received true",
      ),
    );
  });

  it('refuses a plain dpop object at start-up, never reading it as DPoP off', () => {
    expect(make({ dpop: { required: true, replayStore: memoryReplayStore() } })).toThrow(
      new TypeError(
        'jwtBearer: option "dpop" must be made by dpopBinding(): import { dpopBinding } from ' +
          "'@plantstore/core' and pass `dpop: dpopBinding({ …the same options })`; received an " +
          'instance of Object',
      ),
    );
  });

  it('refuses mtls: true and a plain mtls object, naming certificateBinding', () => {
    const expected = (options: string, received: string) =>
      new TypeError(
        'jwtBearer: option "mtls" must be made by certificateBinding(): import { certificateBinding } ' +
          `from '@plantstore/core' and pass \`mtls: certificateBinding(${options})\`; received ${received}`,
      );
    expect(make({ mtls: true })).toThrow(expected('', 'true'));
    expect(make({ mtls: { required: true } })).toThrow(
      expected('{ …the same options }', 'an instance of Object'),
    );
    expect(make({ mtls: 'yes' })).toThrow(expected('', 'a string of 3 characters'));
  });

  it('refuses one binding where the other belongs', () => {
    expect(make({ dpop: certificateBinding() })).toThrow(
      'option "dpop" must be made by dpopBinding()',
    );
    expect(make({ mtls: dpopBinding() })).toThrow(
      'option "mtls" must be made by certificateBinding()',
    );
  });

  it('takes false as off, as before', () => {
    const auth = jwtBearer({ secret, dpop: false, mtls: false });
    expect(auth.accepts.dpop).toBeUndefined();
    expect(auth.accepts.mtls).toBeUndefined();
    expect(auth.accepts.bearer).toBe(true);
  });

  it('says what the bindings made accept', () => {
    const auth = jwtBearer({
      secret,
      dpop: dpopBinding({ required: true, algorithms: ['ES256'] }),
      mtls: certificateBinding({ required: true }),
    });
    expect(auth.accepts.bearer).toBe(false);
    expect(auth.accepts.dpop).toStrictEqual({ algorithms: ['ES256'], required: true });
    expect(auth.accepts.mtls).toStrictEqual({ required: true });
  });
});

describe('dpopBinding', () => {
  it('checks its options when called, naming itself', () => {
    expect(() => dpopBinding({ required: 'yes' as unknown as boolean })).toThrow(
      new TypeError(
        'dpopBinding: option "required" must be a boolean; received a string of 3 characters',
      ),
    );
    expect(() => dpopBinding({ algorithms: ['HS256'] })).toThrow(
      'dpopBinding: option "algorithms" must be a non-empty array of asymmetric algorithms',
    );
    expect(() => dpopBinding({ maxProofAge: '2 fortnights' })).toThrow(
      new TypeError(
        'dpopBinding: option "maxProofAge" must be seconds or a duration like 2 hours; received "2 fortnights"',
      ),
    );
    expect(() => dpopBinding({ nonce: { secret: 'short' } })).toThrow(
      new TypeError(
        'dpopBinding: option "nonce.secret" must be at least 32 bytes (RFC 7518 §3.2); received 5 bytes',
      ),
    );
    expect(() => dpopBinding({ replyStore: memoryReplayStore() } as never)).toThrow(
      new TypeError('dpopBinding: unknown option "replyStore" (did you mean "replayStore"?)'),
    );
  });
});
