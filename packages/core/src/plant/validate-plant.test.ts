import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusal } from '../body/refusal.test-support';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import type { PlantCandidate } from '../body/plant-candidate';
import { readPlantJson } from '../body/read-plant-json';
import * as v from 'valibot';
import { NewPlantSchema } from './schemas';
import { plainlyValid, validatePlant } from './validate-plant';

const RANGE = 'an integer from -9223372036854775808 to 9223372036854775807';

const candidate = (fields: Record<string, unknown>): PlantCandidate =>
  Object.assign(Object.create(null) as PlantCandidate, fields);

describe('validatePlant', () => {
  it('returns a frozen record that inherits nothing, with exactly id and name when there is no tag', () => {
    const plant = validatePlant(candidate({ id: 1n, name: 'Fern' }));
    const prototype: unknown = Object.getPrototypeOf(plant);
    expect(Object.getPrototypeOf(prototype)).toBeNull();
    expect(Reflect.ownKeys(prototype as object)).toStrictEqual([]);
    expect(Object.isFrozen(prototype)).toBe(true);
    expect('toString' in plant).toBe(false);
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

  it('lets a plant through without the schema only when the schema accepts it', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string().map((value) => `${value}\u0000${value}`),
    );
    const id = fc.oneof(
      fc.bigInt({ min: INT64_MIN - 2n, max: INT64_MAX + 2n }),
      fc.constantFrom(INT64_MIN, INT64_MAX, INT64_MIN - 1n, INT64_MAX + 1n, 0n),
      fc.integer(),
      fc.double(),
      text,
      fc.constant(null),
      fc.constant(undefined),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
    );
    fc.assert(
      fc.property(id, value, value, (idValue, name, tag) => {
        expect(plainlyValid(idValue, name, tag)).toBe(
          v.is(NewPlantSchema, { id: idValue, name, tag }),
        );
      }),
      { numRuns: 5_000 },
    );
  });
});
