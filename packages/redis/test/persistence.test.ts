import { describe, expect, it } from 'vitest';
import { persistenceRisk, readPersistence } from '../src/persistence';

class ReplyError extends Error {}

/** A server's answers to `CONFIG GET <name>` and `INFO persistence`, in a client's shape. */
const serverOf =
  (config: (name: string) => unknown, info: () => unknown) =>
  (args: readonly string[]): Promise<unknown> =>
    new Promise((resolve) => resolve(args[0] === 'CONFIG' ? config(args[2] ?? '') : info()));

const refused = (): never => {
  throw new ReplyError("ERR unknown command 'CONFIG'");
};

describe('readPersistence', () => {
  it.each([
    ['a flat array (RESP2)', (name: string, value: string) => [name, value]],
    ['a map (RESP3)', (name: string, value: string) => new Map([[name, value]])],
    ['an object (node-redis 6)', (name: string, value: string) => ({ [name]: value })],
  ])('reads CONFIG GET answered as %s', async (_shape, reply) => {
    const values: Record<string, string> = { appendonly: 'yes', appendfsync: 'always', save: '' };
    const send = serverOf((name) => reply(name, values[name] ?? ''), refused);
    expect(await readPersistence(send)).toEqual({
      appendonly: 'yes',
      appendfsync: 'always',
      save: '',
    });
  });

  it('falls back to INFO persistence where CONFIG is refused, which shows no fsync policy', async () => {
    const send = serverOf(refused, () => Buffer.from('# Persistence\r\naof_enabled:1\r\n'));
    expect(await readPersistence(send)).toEqual({
      appendonly: 'yes',
      appendfsync: undefined,
      save: undefined,
    });
  });

  it('reads nothing where both are refused, and passes on a failure to reach the server', async () => {
    expect(await readPersistence(serverOf(refused, refused))).toEqual({
      appendonly: undefined,
      appendfsync: undefined,
      save: undefined,
    });
    const down = new Error('Socket closed unexpectedly');
    const unreachable = serverOf(() => {
      throw down;
    }, refused);
    await expect(readPersistence(unreachable)).rejects.toBe(down);
  });
});

describe('persistenceRisk', () => {
  it('finds none only with appendonly yes and appendfsync always', () => {
    expect(persistenceRisk({ appendonly: 'yes', appendfsync: 'always', save: '' })).toBeUndefined();
    for (const appendfsync of ['everysec', 'no', undefined]) {
      expect(persistenceRisk({ appendonly: 'yes', appendfsync, save: '' })).toMatch(/last second/);
    }
  });

  it('names the snapshots, or their absence, when the append-only file is off', () => {
    expect(persistenceRisk({ appendonly: 'no', appendfsync: 'everysec', save: '' })).toMatch(
      /^its append-only file is off \(no RDB snapshots either\)/,
    );
    expect(
      persistenceRisk({ appendonly: undefined, appendfsync: undefined, save: undefined }),
    ).toMatch(/^its persistence cannot be read/);
  });
});
