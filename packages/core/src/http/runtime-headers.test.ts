import { describe, expect, it } from 'vitest';
import { runtimeHeaders } from './runtime-headers';

describe('runtimeHeaders', () => {
  it("uses the runtime's own Headers as they are", () => {
    const headers = new Headers({ 'content-encoding': 'gzip' });
    expect(runtimeHeaders(headers)).toBe(headers);
  });

  it('copies a look-alike whose get misses fields that iterating it holds', () => {
    // As @hono/node-server's lazy headers: `get` reads Node's first 1000 fields only.
    const lazy = new Headers({ 'content-encoding': 'gzip', 'content-length': '22' });
    const native = lazy.get.bind(lazy);
    Object.setPrototypeOf(lazy, Object.create(Headers.prototype) as object);
    Object.defineProperty(lazy, 'get', {
      value: (name: string) => (name === 'content-encoding' ? null : native(name)),
    });
    expect(lazy.get('content-encoding')).toBeNull();
    const copy = runtimeHeaders(lazy);
    expect(copy).not.toBe(lazy);
    expect(copy.get('content-encoding')).toBe('gzip');
    expect(copy.get('content-length')).toBe('22');
  });
});
