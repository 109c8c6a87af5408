import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import { ErrorSchema, INT32_MAX, INT32_MIN, NewPlantSchema, PlantSchema } from './schemas';

const plant = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.assign(Object.create(null) as Record<string, unknown>, fields);

describe('PlantSchema', () => {
  it('accepts a name alone and a name with a tag', () => {
    expect(v.is(PlantSchema, { name: 'Fern' })).toBe(true);
    expect(v.is(PlantSchema, { name: 'Fern', tag: 'indoor' })).toBe(true);
  });

  it('keeps strings exactly, without trimming or normalising', () => {
    const name = ' Fe\u0301rn\t';
    expect(v.parse(PlantSchema, { name }).name).toBe(name);
  });

  it('accepts the empty string and astral characters', () => {
    expect(v.is(PlantSchema, { name: '', tag: '🌿' })).toBe(true);
  });

  it('refuses a missing name and a name that is not a string', () => {
    expect(v.is(PlantSchema, {})).toBe(false);
    for (const name of [null, 1, 1n, true, [], {}]) expect(v.is(PlantSchema, { name })).toBe(false);
  });

  it('refuses a null tag, because null is not a string', () => {
    expect(v.is(PlantSchema, { name: 'Fern', tag: null })).toBe(false);
  });

  it('refuses U+0000 in the name and in the tag', () => {
    expect(v.is(PlantSchema, { name: 'Fe\u0000rn' })).toBe(false);
    expect(v.is(PlantSchema, { name: 'Fern', tag: '\u0000' })).toBe(false);
  });

  it('accepts other control characters, which PostgreSQL can store', () => {
    expect(v.is(PlantSchema, { name: '\u0001\u001f\u007f' })).toBe(true);
  });

  it('drops properties it does not know', () => {
    expect(v.parse(PlantSchema, { name: 'Fern', colour: 'green' })).toStrictEqual({ name: 'Fern' });
  });
});

describe('NewPlantSchema', () => {
  it('accepts both ends of the int64 range', () => {
    expect(v.is(NewPlantSchema, plant({ id: INT64_MIN, name: 'a' }))).toBe(true);
    expect(v.is(NewPlantSchema, plant({ id: INT64_MAX, name: 'a' }))).toBe(true);
    expect(v.is(NewPlantSchema, plant({ id: 0n, name: 'a' }))).toBe(true);
  });

  it('refuses one past either end of the int64 range', () => {
    expect(v.is(NewPlantSchema, plant({ id: INT64_MIN - 1n, name: 'a' }))).toBe(false);
    expect(v.is(NewPlantSchema, plant({ id: INT64_MAX + 1n, name: 'a' }))).toBe(false);
  });

  it('keeps a large id exactly', () => {
    expect(v.parse(NewPlantSchema, plant({ id: 9007199254740993n, name: 'a' })).id).toBe(
      9007199254740993n,
    );
  });

  it('refuses an id that is not a bigint', () => {
    for (const id of [1, 0.5, '1', true, null, [], {}]) {
      expect(v.is(NewPlantSchema, plant({ id, name: 'a' }))).toBe(false);
    }
  });

  it('requires both id and name and applies the Plant rules to name and tag', () => {
    expect(v.is(NewPlantSchema, plant({ name: 'a' }))).toBe(false);
    expect(v.is(NewPlantSchema, plant({ id: 1n }))).toBe(false);
    expect(v.is(NewPlantSchema, plant({ id: 1n, name: 'a', tag: null }))).toBe(false);
    expect(v.is(NewPlantSchema, plant({ id: 1n, name: 'a\u0000' }))).toBe(false);
  });

  it('reuses the very schema objects of PlantSchema for name and tag', () => {
    expect(NewPlantSchema.entries.name).toBe(PlantSchema.entries.name);
    expect(NewPlantSchema.entries.tag).toBe(PlantSchema.entries.tag);
  });

  it('carries the descriptions of the specification', () => {
    expect(v.getDescription(NewPlantSchema.entries.id)).toBe('Identification number of the plant');
    expect(v.getDescription(PlantSchema.entries.name)).toBe('The name of the plant');
    expect(v.getDescription(PlantSchema.entries.tag.wrapped)).toBe(
      'Tag that specifies the type of the plant',
    );
  });
});

describe('ErrorSchema', () => {
  it('accepts an int32 error and a message', () => {
    expect(v.is(ErrorSchema, { error: 400, message: 'x' })).toBe(true);
    expect(v.is(ErrorSchema, { error: INT32_MIN, message: '' })).toBe(true);
    expect(v.is(ErrorSchema, { error: INT32_MAX, message: '' })).toBe(true);
  });

  it('refuses an error outside int32, a fraction, and missing members', () => {
    expect(v.is(ErrorSchema, { error: INT32_MAX + 1, message: '' })).toBe(false);
    expect(v.is(ErrorSchema, { error: INT32_MIN - 1, message: '' })).toBe(false);
    expect(v.is(ErrorSchema, { error: 400.5, message: '' })).toBe(false);
    expect(v.is(ErrorSchema, { error: 400 })).toBe(false);
    expect(v.is(ErrorSchema, { message: 'x' })).toBe(false);
  });
});
