import type { Cancellation } from '@plantstore/core';
import { describe, expect, it } from 'vitest';
import { deadlineSql, serverKindOf } from '../src/server-deadline';

/** A time-out that passes at `expiresAt` on performance.now()'s clock. */
const until = (expiresAt: number | undefined): Cancellation => ({
  aborted: false,
  reason: undefined,
  expiresAt,
  onAbort: () => () => undefined,
});

const INSERT = 'INSERT INTO `plants` (id, name, tag, created_by) VALUES (1, X, NULL, Y)';
const SELECT = 'SELECT CAST(id AS CHAR) FROM `plants` WHERE id = 1';

describe('serverKindOf', () => {
  it.each([
    ['5.5.5-10.11.19-MariaDB-0+deb12u1', 'mariadb'],
    ['11.4.2-MariaDB', 'mariadb'],
    ['8.0.36', 'mysql'],
    ['8.4.0-commercial', 'mysql'],
  ])('reads the greeting version %s as %s', (serverVersion, kind) => {
    expect(serverKindOf({ _handshakePacket: { serverVersion } })).toBe(kind);
  });

  it('takes a connection without a greeting for MySQL, whose hints MariaDB reads as a comment', () => {
    expect(serverKindOf({})).toBe('mysql');
    expect(serverKindOf({ _handshakePacket: null })).toBe('mysql');
  });
});

describe('deadlineSql', () => {
  it('bounds a MariaDB statement with max_statement_time a tenth short of what is left', () => {
    expect(deadlineSql(INSERT, 'mariadb', until(1_300), 1_000)).toBe(
      `SET STATEMENT max_statement_time=0.270 FOR ${INSERT}`,
    );
    expect(deadlineSql(SELECT, 'mariadb', until(6_000), 1_000)).toBe(
      `SET STATEMENT max_statement_time=4.950 FOR ${SELECT}`,
    );
  });

  it('bounds MySQL DML by lock_wait_timeout in whole seconds before the time-out, and a SELECT by MAX_EXECUTION_TIME too', () => {
    expect(deadlineSql(INSERT, 'mysql', until(6_000), 1_000)).toBe(
      'INSERT /*+ SET_VAR(lock_wait_timeout=4) */ INTO `plants` (id, name, tag, created_by) VALUES (1, X, NULL, Y)',
    );
    expect(deadlineSql(SELECT, 'mysql', until(1_300), 1_000)).toBe(
      'SELECT /*+ MAX_EXECUTION_TIME(270) SET_VAR(lock_wait_timeout=1) */ CAST(id AS CHAR) FROM `plants` WHERE id = 1',
    );
    expect(deadlineSql('UPDATE `t` SET a = 1', 'mysql', until(3_000), 0)).toBe(
      'UPDATE /*+ SET_VAR(lock_wait_timeout=2) */ `t` SET a = 1',
    );
  });

  it('never sends 0, which both servers read as no limit, however little is left', () => {
    expect(deadlineSql(INSERT, 'mariadb', until(1_000), 1_000)).toBe(
      `SET STATEMENT max_statement_time=0.001 FOR ${INSERT}`,
    );
    expect(deadlineSql(INSERT, 'mysql', until(900), 1_000)).toMatch(
      /^INSERT \/\*\+ SET_VAR\(lock_wait_timeout=1\) \*\/ INTO /,
    );
  });

  it('leaves a statement as it is without a deadline, or when the server cannot bound it', () => {
    expect(deadlineSql(INSERT, 'mariadb', undefined)).toBe(INSERT);
    expect(deadlineSql(INSERT, 'mysql', until(undefined))).toBe(INSERT);
    expect(deadlineSql('CREATE TABLE IF NOT EXISTS `t` (id BIGINT)', 'mariadb', until(9e9))).toBe(
      'CREATE TABLE IF NOT EXISTS `t` (id BIGINT)',
    );
    expect(deadlineSql('DO 0', 'mysql', until(9e9))).toBe('DO 0');
  });
});
