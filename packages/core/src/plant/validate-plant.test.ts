import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidBodyError } from '../errors/plant-store-error';
import type { PlantCandidate } from '../body/read-plant-json';
import { INT64_MAX, INT64_MIN, readPlantJson } from '../body/read-plant-json';
import { candidateFromParsed, validatePlant } from './validate-plant';

const RANGE = 'an integer from -9223372036854775808 to 9223372036854775807';

const candidate = (fields: Record<string, unknown>): PlantCandidate =>
  Object.assign(Object.create(null) as PlantCandidate, fields);

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

describe('validatePlant', () => {
  it('returns a frozen null-prototype record with exactly id and name when there is no tag', () => {
    const plant = validatePlant(candidate({ id: 1n, name: 'Fern' }));
    expect(Object.getPrototypeOf(plant)).toBeNull();
    expect(Object.isFrozen(plant)).toBe(true);
    expect(Reflect.ownKeys(plant)).toStrictEqual(['id', 'name']);
    expect('tag' in plant).toBe(false);
    expect(plant.id).toBe(1n);
    expect(plant.name).toBe('Fern');
  });

  it('returns the tag when there is one, and nothing else of the candidate', () => {
    const input = candidate({ id: INT64_MAX, name: 'Fern', tag: 'indoor', colour: 'green' });
    const plant = validatePlant(input);
    expect(Reflect.ownKeys(plant)).toStrictEqual(['id', 'name', 'tag']);
    expect(plant).not.toBe(input);
    expect(plant.tag).toBe('indoor');
  });

  it('accepts both ends of the int64 range exactly', () => {
    expect(validatePlant(candidate({ id: INT64_MIN, name: 'a' })).id).toBe(INT64_MIN);
    expect(validatePlant(readPlantJson('{"id":9007199254740993,"name":"a"}')).id).toBe(
      9007199254740993n,
    );
  });

  it('ignores members inherited through the prototype chain', () => {
    const inherited = Object.create({ id: 1n, name: 'Fern' }) as PlantCandidate;
    const error = refusal(() => validatePlant(inherited));
    expect(error.message).toBe('The plant is invalid: id: is required; name: is required.');
  });

  it('reports a missing required field as field_missing', () => {
    const error = refusal(() => validatePlant(candidate({ id: 1n })));
    expect(error.code).toBe('field_missing');
    expect(error.status).toBe(400);
    expect(error.message).toBe('The plant is invalid: name: is required.');
    expect(error.issues).toStrictEqual([
      { field: 'name', code: 'field_missing', message: 'is required' },
    ]);
  });

  it('reports an id with a fraction as id_not_integer', () => {
    const error = refusal(() => validatePlant(readPlantJson('{"id":1.5,"name":"a"}')));
    expect(error.code).toBe('id_not_integer');
    expect(error.message).toBe(
      `The plant is invalid: id: expected ${RANGE}, received a number with a fraction.`,
    );
  });

  it('reports an id past either end of int64 as id_out_of_range', () => {
    for (const text of ['9223372036854775808', '-9223372036854775809', '1e400']) {
      const error = refusal(() => validatePlant(readPlantJson(`{"id":${text},"name":"a"}`)));
      expect(error.code).toBe('id_out_of_range');
      expect(error.message).toBe(
        `The plant is invalid: id: expected ${RANGE}, received an integer outside the int64 range.`,
      );
    }
  });

  it('reports an infinite id as id_out_of_range', () => {
    const error = refusal(() => validatePlant(candidate({ id: -Infinity, name: 'a' })));
    expect(error.code).toBe('id_out_of_range');
  });

  it('reports U+0000 in a string as string_contains_nul', () => {
    const error = refusal(() => validatePlant(candidate({ id: 1n, name: 'a', tag: 'b\u0000' })));
    expect(error.code).toBe('string_contains_nul');
    expect(error.message).toBe(
      'The plant is invalid: tag: expected a string without the character U+0000, received a string containing U+0000.',
    );
  });

  it('reports other type mismatches as schema_mismatch, naming only the type', () => {
    const cases: [string, string][] = [
      ['{"id":"1","name":"a"}', `id: expected ${RANGE}, received a string`],
      ['{"id":true,"name":"a"}', `id: expected ${RANGE}, received a boolean`],
      ['{"id":null,"name":"a"}', `id: expected ${RANGE}, received null`],
      ['{"id":{},"name":"a"}', `id: expected ${RANGE}, received an object`],
      ['{"id":[],"name":"a"}', `id: expected ${RANGE}, received an array`],
      ['{"id":1,"name":2}', 'name: expected a string, received an integer'],
      ['{"id":1,"name":0.5}', 'name: expected a string, received a number with a fraction'],
      ['{"id":1,"name":"a","tag":null}', 'tag: expected a string or no tag at all, received null'],
    ];
    for (const [text, expected] of cases) {
      const error = refusal(() => validatePlant(readPlantJson(text)));
      expect(error.code).toBe('schema_mismatch');
      expect(error.message).toBe(`The plant is invalid: ${expected}.`);
    }
  });

  it('lists several offending fields together, in the order id, name, tag', () => {
    const error = refusal(() =>
      validatePlant(readPlantJson('{"tag":false,"name":"\\u0000","id":"7"}')),
    );
    expect(error.code).toBe('schema_mismatch');
    expect(error.message).toBe(
      `The plant is invalid: id: expected ${RANGE}, received a string; name: expected a string without the character U+0000, received a string containing U+0000; tag: expected a string or no tag at all, received a boolean.`,
    );
    expect(error.issues.map((issue) => [issue.field, issue.code])).toStrictEqual([
      ['id', 'schema_mismatch'],
      ['name', 'string_contains_nul'],
      ['tag', 'schema_mismatch'],
    ]);
  });

  it('takes its code from the first offending field', () => {
    const error = refusal(() => validatePlant(candidate({ id: 0.5 })));
    expect(error.code).toBe('id_not_integer');
    expect(error.message).toBe(
      `The plant is invalid: id: expected ${RANGE}, received a number with a fraction; name: is required.`,
    );
  });

  it('never echoes submitted values in its message or issues', () => {
    const wrong = fc.string({ minLength: 8 });
    fc.assert(
      fc.property(wrong, wrong, wrong, (id, name, tag) => {
        const error = refusal(() =>
          validatePlant(candidate({ id, name: `${name}\u0000`, tag: [tag] })),
        );
        const texts = [error.message, ...error.issues.map((issue) => issue.message)];
        for (const value of [id, name, tag]) {
          for (const text of texts) expect(text).not.toContain(value);
        }
      }),
    );
  });
});

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
