import { describe, expect, it } from 'vitest';
import { judgeBody } from '../../src/hostile/body-oracle';
import { CASE_GROUPS } from '../../src/hostile/case';
import { hostileCatalog } from '../../src/hostile/catalog';
import { tokenAttacks } from '../../src/hostile/describe-token-attacks';
import { TOKEN_GROUPS } from '../../src/hostile/token-attack';

describe('the hostile-input catalog', () => {
  it('holds at least 120 bodies and headers, in every group', () => {
    expect(hostileCatalog.length).toBeGreaterThanOrEqual(120);
    const groups = new Set(hostileCatalog.map((testCase) => testCase.group));
    expect([...groups].sort()).toEqual([...CASE_GROUPS].sort());
  });

  it('holds at least 60 token attacks, in every group', () => {
    expect(tokenAttacks.length).toBeGreaterThanOrEqual(60);
    const groups = new Set(tokenAttacks.map((attack) => attack.group));
    expect([...groups].sort()).toEqual([...TOKEN_GROUPS].sort());
  });

  it('names every case once', () => {
    const names = hostileCatalog.map((testCase) => `${testCase.group}: ${testCase.name}`);
    expect(new Set(names).size).toBe(names.length);
    const attacks = tokenAttacks.map((attack) => `${attack.group}: ${attack.name}`);
    expect(new Set(attacks).size).toBe(attacks.length);
  });

  it('gives each accepted case its own id, so every 200 stores a new plant or replays its own', () => {
    const owners = new Map<bigint, string>();
    for (const testCase of hostileCatalog) {
      if (testCase.expect.by !== 'route' || testCase.expect.status !== 200) continue;
      const { id, name, tag } = testCase.expect.stored;
      const content = JSON.stringify({ name, tag });
      expect(owners.get(id) ?? content, `id ${id}`).toBe(content);
      owners.set(id, content);
    }
  });
});

describe('the fuzz oracle', () => {
  // The oracle is written apart from the route; the hand-written catalog checks it before it judges
  // the fuzz. Only cases that differ by their body alone can be judged by it.
  const bodyCases = hostileCatalog.filter(
    (testCase) =>
      testCase.request.kind === 'http' &&
      testCase.request.headers === undefined &&
      testCase.expect.by === 'route' &&
      testCase.deviation === undefined,
  );

  it('has at least 50 catalog bodies to agree with', () => {
    expect(bodyCases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(bodyCases.map((testCase) => [`${testCase.group}: ${testCase.name}`, testCase] as const))(
    'agrees with the catalog on %s',
    (_name, testCase) => {
      if (testCase.request.kind !== 'http' || testCase.expect.by !== 'route') return;
      const body = testCase.request.body ?? '';
      const verdict = judgeBody(typeof body === 'string' ? new TextEncoder().encode(body) : body);
      if (testCase.expect.status === 200) {
        expect(verdict).toEqual({ valid: true, plant: testCase.expect.stored });
      } else {
        expect(verdict.valid).toBe(false);
        if (verdict.valid) return;
        expect(verdict.status).toBe(testCase.expect.status);
        expect(verdict.codes).toContain(testCase.expect.code);
      }
    },
  );
});
