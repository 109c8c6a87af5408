import { describe, expect, it } from 'vitest';
import { plantAnswer } from './answer';
import type { Plant } from '../plant/plant';

describe('plantAnswer', () => {
  it('writes the body JSON.stringify writes, for every kind of text', () => {
    const texts = [
      'Monstera',
      '',
      'a "quoted" name',
      'back\\slash',
      'tab\there',
      'line\nbreak',
      '\u0000\u001f\u007f',
      'Pilea 🌿 peperomioides',
      'lone \ud83c surrogate',
      'lone \udf3f low',
      '\u2028\u2029',
      'é ñ ü',
    ];
    for (const name of texts) {
      for (const tag of [undefined, ...texts]) {
        const plant = { id: 1n, name, ...(tag === undefined ? {} : { tag }) } as Plant;
        const expected = JSON.stringify(tag === undefined ? { name } : { name, tag });
        expect(plantAnswer(plant).body, `${name} / ${String(tag)}`).toBe(expected);
      }
    }
  });
});
