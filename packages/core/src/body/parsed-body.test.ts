import { describe, expect, it } from 'vitest';
import { InvalidBodyError } from '../errors/client-errors';
import { validatePlant } from '../plant/validate-plant';
import { candidateFromParsed } from './parsed-body';
import { readPlantJson } from './read-plant-json';

/** Runs `fn`, expecting an InvalidBodyError, and returns it. */
function refusal(fn: () => unknown): InvalidBodyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidBodyError);
    return error as InvalidBodyError;
  }
  throw new Error('expected an InvalidBodyError');
}

describe('candidateFromParsed', () => {
  it('turns a safe integer id into a bigint and keeps strings exactly', () => {
    const found = candidateFromParsed(JSON.parse('{"id":9007199254740991,"name":" Fern ","x":1}'));
    expect(Object.getPrototypeOf(found)).toBeNull();
    expect(Reflect.ownKeys(found)).toStrictEqual(['id', 'name']);
    expect(found.id).toBe(9007199254740991n);
    expect(found.name).toBe(' Fern ');
  });

  it('refuses an integer id beyond 2^53, which JSON.parse has rounded', () => {
    for (const text of ['9007199254740993', '-9007199254740993', '9223372036854775807']) {
      const error = refusal(() => candidateFromParsed(JSON.parse(`{"id":${text},"name":"a"}`)));
      expect(error.code).toBe('id_unsafe_in_parsed_body');
      expect(error.message).toContain(
        'mount the plants route before the body parser (express.json()',
      );
    }
  });

  it('reports an id far beyond int64, or infinite, as out of range', () => {
    for (const text of ['1e30', '-1e30', '1e400']) {
      const found = candidateFromParsed(JSON.parse(`{"id":${text},"name":"a"}`));
      expect(refusal(() => validatePlant(found)).code).toBe('id_out_of_range');
    }
  });

  it('keeps a fractional id, so it is reported as not an integer', () => {
    const found = candidateFromParsed(JSON.parse('{"id":1.5,"name":"a"}'));
    expect(refusal(() => validatePlant(found)).code).toBe('id_not_integer');
  });

  it('accepts 1.0 and 1e2 as integers, as the strict reader does', () => {
    expect(candidateFromParsed(JSON.parse('{"id":1.0}')).id).toBe(1n);
    expect(candidateFromParsed(JSON.parse('{"id":1e2}')).id).toBe(100n);
  });

  it('turns nested objects and arrays into empty placeholders of their type', () => {
    const found = candidateFromParsed(JSON.parse('{"id":{"a":1},"name":[1,2],"tag":null}'));
    expect(Object.getPrototypeOf(found.id)).toBeNull();
    expect(Object.keys(found.id as object)).toStrictEqual([]);
    expect(found.name).toStrictEqual([]);
    expect(found.tag).toBeNull();
  });

  it('refuses a body that is not a plain object', () => {
    for (const body of [[], null, 'text', 1, true, undefined, new Map(), Buffer.from('{}')]) {
      expect(refusal(() => candidateFromParsed(body)).code).toBe('body_not_object');
    }
    expect(refusal(() => candidateFromParsed(null)).message).toBe(
      'The body must be a JSON object, but it is null.',
    );
  });

  it('accepts a null-prototype object', () => {
    const body = Object.assign(Object.create(null) as object, { id: 1, name: 'a' });
    expect(candidateFromParsed(body).id).toBe(1n);
  });

  it('refuses an own __proto__ key from JSON.parse', () => {
    const error = refusal(() => candidateFromParsed(JSON.parse('{"__proto__":{}}')));
    expect(error.code).toBe('body_forbidden_key');
  });

  it('refuses __proto__ and constructor keys at any depth, also inside arrays', () => {
    for (const text of [
      '{"constructor":1}',
      '{"a":{"b":{"constructor":{}}}}',
      '{"a":[1,{"__proto__":null}]}',
    ]) {
      expect(refusal(() => candidateFromParsed(JSON.parse(text))).code).toBe('body_forbidden_key');
    }
  });

  it('never reads id, name or tag from the prototype chain, even a polluted one', () => {
    Object.defineProperty(Object.prototype, 'tag', { value: 'polluted', configurable: true });
    try {
      const found = candidateFromParsed(JSON.parse('{"id":1,"name":"a"}'));
      expect(Reflect.ownKeys(found)).toStrictEqual(['id', 'name']);
      expect(Reflect.ownKeys(validatePlant(found))).toStrictEqual(['id', 'name']);
    } finally {
      Reflect.deleteProperty(Object.prototype, 'tag');
    }
  });

  it('refuses an object with a prototype other than Object.prototype', () => {
    const body = Object.create({ id: 1, name: 'inherited' }) as object;
    expect(refusal(() => candidateFromParsed(body)).code).toBe('body_not_object');
  });

  it('accepts nesting of 64 levels and refuses 65, like the strict reader', () => {
    const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
    expect(() => candidateFromParsed(JSON.parse(nested(64)))).not.toThrow();
    expect(() => readPlantJson(nested(64))).not.toThrow();
    expect(refusal(() => candidateFromParsed(JSON.parse(nested(65)))).code).toBe('body_too_deep');
    expect(refusal(() => readPlantJson(nested(65))).code).toBe('body_too_deep');
  });

  it('refuses 100,000 levels of nesting without overflowing the stack', () => {
    let body: Record<string, unknown> = { id: 1, name: 'a' };
    for (let level = 0; level < 100_000; level++) body = { a: body };
    const arrays: unknown[] = [];
    let inner = arrays;
    for (let level = 0; level < 100_000; level++) {
      const next: unknown[] = [];
      inner.push(next);
      inner = next;
    }
    expect(refusal(() => candidateFromParsed(body)).code).toBe('body_too_deep');
    expect(refusal(() => candidateFromParsed({ id: 1, x: arrays })).code).toBe('body_too_deep');
  });

  it('walks a hand-built graph with shared and cyclic references in linear time', () => {
    let shared: Record<string, unknown> = {};
    for (let level = 0; level < 40; level++) shared = { left: shared, right: shared };
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(candidateFromParsed({ id: 1, shared, cyclic }).id).toBe(1n);
  });
});

describe('candidateFromParsed, for strings a host parser unescaped', () => {
  it('refuses a lone surrogate in name or tag, as the strict reader does', () => {
    for (const text of ['{"id":1,"name":"\\ud800"}', '{"id":1,"name":"a","tag":"x\\udfff"}']) {
      expect(() => candidateFromParsed(JSON.parse(text))).toThrow(
        expect.objectContaining({ code: 'body_lone_surrogate', status: 400 }),
      );
    }
  });
});
