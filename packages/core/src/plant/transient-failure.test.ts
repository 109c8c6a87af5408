import { describe, expect, it } from 'vitest';
import { isTransientFailure } from './transient-failure';

// The shapes below are the drivers' own (their codes and SQLSTATEs as the drivers document them);
// examples/custom-storage/src/driver-failures.test.ts makes the real drivers fail over sockets.
const failure = (fields: Record<string, unknown>) => Object.assign(new Error('failed'), fields);

describe('isTransientFailure', () => {
  it.each([
    ['a Node network error', { code: 'ECONNRESET' }],
    ['postgres.js, the connection closed under a query', { code: 'CONNECTION_CLOSED' }],
    ['PostgreSQL, a serialization failure', { code: '40001' }],
    ['PostgreSQL, too many connections (class 53)', { code: '53300' }],
    ['mysql2, the connection lost', { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }],
    ['mysql2, a deadlock', { code: 'ER_LOCK_DEADLOCK', errno: 1213, sqlState: '40001' }],
    [
      'mysql2, a communication failure (class 08)',
      { code: 'ER_NET_READ_ERROR', sqlState: '08S01' },
    ],
    ['a wrapped network error', { cause: failure({ cause: failure({ code: 'ETIMEDOUT' }) }) }],
    ['every address refused (AggregateError)', { errors: [failure({ code: 'ECONNREFUSED' })] }],
    ['undici, a socket failed under fetch', { cause: failure({ code: 'UND_ERR_SOCKET' }) }],
  ])('takes %s for a failure worth a retry', (_, fields) => {
    expect(isTransientFailure(failure(fields))).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['mysql2, a duplicate entry', { code: 'ER_DUP_ENTRY', errno: 1062, sqlState: '23000' }],
    ['a permission error', { code: 'EACCES' }],
    ['an error without a code', {}],
  ])('takes %s for a fault of the store', (_, fields) => {
    expect(isTransientFailure(failure(fields))).toBe(false);
  });

  it('reads a failure by its class where drivers give no code (ioredis, node-redis, MongoDB)', () => {
    class MaxRetriesPerRequestError extends Error {}
    const named = Object.assign(new Error('no server'), { name: 'MongoServerSelectionError' });
    expect(isTransientFailure(new MaxRetriesPerRequestError('gave up'))).toBe(true);
    expect(isTransientFailure(named)).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { name: 'MongoServerError' }))).toBe(
      false,
    );
  });

  it('stops walking a cause chain that loops on itself', () => {
    const looped = failure({ code: 'EACCES' });
    Object.assign(looped, { cause: looped });
    expect(isTransientFailure(looped)).toBe(false);
  });

  it('takes a thrown value whose fields throw for a fault, without throwing itself', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('a getter that throws');
        },
      },
    );
    expect(isTransientFailure(hostile)).toBe(false);
    expect(isTransientFailure('ECONNRESET')).toBe(false);
    expect(isTransientFailure(undefined)).toBe(false);
  });
});
