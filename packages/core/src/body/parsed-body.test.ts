import { describe, expect, it } from 'vitest';
import { refusal } from './refusal.test-support';
import { validatePlant } from '../plant/validate-plant';
import { candidateFromParsed } from './parsed-body';
import { readPlantJson } from './read-plant-json';

describe('candidateFromParsed', () => {
  it('keeps strings exactly and only id, name and tag', () => {
    const found = candidateFromParsed(JSON.parse('{"id":"9","name":" Fern ","x":1}'));
    expect(Object.getPrototypeOf(found)).toBeNull();
    expect(Reflect.ownKeys(found)).toStrictEqual(['id', 'name']);
    expect(found.name).toBe(' Fern ');
  });

  it.each([
    ['a fraction JSON.parse rounded to an integer', '4503599627370497.5'],
    ['a fraction below what a double can tell from 1', '1.0000000000000001'],
    ['an underflow JSON.parse made 0', '1e-400'],
    ['an id past 2^53, rounded', '9007199254740993'],
    ['the top of int64, rounded', '9223372036854775807'],
    ['a small, safe integer', '7'],
    ['1.0', '1.0'],
    ['a fraction that survived', '1.5'],
    ['an overflow JSON.parse made Infinity', '1e400'],
  ])('refuses a numeric id it only has parsed (%s): it cannot prove it exact', (_c, text) => {
    const parsed: unknown = JSON.parse(`{"id":${text},"name":"a"}`);
    expect(() => validatePlant(candidateFromParsed(parsed))).toThrow(
      expect.objectContaining({ status: 500, code: 'body_parsed_by_host' }),
    );
  });

  it.each([
    ['a numeric name', '{"id":1,"name":5}', ['name']],
    ['a null tag', '{"id":1,"name":"a","tag":null}', ['tag']],
    ['no name', '{"id":1}', ['name']],
    ['both', '{"id":1e400,"name":true,"tag":[]}', ['name', 'tag']],
  ])(
    "answers the schema of name and tag before a numeric id it cannot prove (%s): those are the client's to fix",
    (_case, text, fields) => {
      const error = refusal(() => validatePlant(candidateFromParsed(JSON.parse(text))));
      expect(error.status).toBe(400);
      expect(error.issues.map((issue) => issue.field)).toStrictEqual(fields);
    },
  );

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
    const body = Object.assign(Object.create(null) as object, { id: '1', name: 'a' });
    expect(candidateFromParsed(body).name).toBe('a');
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
      const found = candidateFromParsed(JSON.parse('{"id":"1","name":"a"}'));
      expect(Reflect.ownKeys(found)).toStrictEqual(['id', 'name']);
      expect(refusal(() => validatePlant(found)).issues.map((issue) => issue.field)).toStrictEqual([
        'id',
      ]);
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
    expect(candidateFromParsed({ name: 'a', shared, cyclic }).name).toBe('a');
  });
});

describe('candidateFromParsed, for strings a host parser unescaped', () => {
  it('refuses a lone surrogate in name or tag, as the strict reader does', () => {
    for (const text of ['{"name":"\\ud800"}', '{"name":"a","tag":"x\\udfff"}']) {
      expect(() => candidateFromParsed(JSON.parse(text))).toThrow(
        expect.objectContaining({ code: 'body_lone_surrogate', status: 400 }),
      );
    }
  });
});
