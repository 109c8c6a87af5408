import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replaySchemaSql, schemaSql } from '../src/index';

describe('the shipped SQL', () => {
  it.each([
    ['schema.sql', schemaSql()],
    ['replay-schema.sql', replaySchemaSql()],
  ])('ships a %s holding the statement the store runs', (file, statement) => {
    const shipped = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    expect(shipped, `${file} drifted from src/: regenerate it`).toContain(`${statement};\n`);
  });
});
