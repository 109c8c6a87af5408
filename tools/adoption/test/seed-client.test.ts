import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startExample, type RunningExample } from './example-app';
import { generateTestTypes, SEED_DOCUMENT as seed } from './generated-types';
import type { components, paths } from './generated/seed/plantstore-api';

describe('a client generated from the specification (spec/plant-store.openapi.json)', () => {
  let app: RunningExample;
  let client: Client<paths>;

  beforeAll(async () => {
    app = await startExample();
    // The seed's path is `/plants`: the client's base URL carries the mount point.
    client = createClient<paths>({
      baseUrl: `${app.origin}/api`,
      headers: { Authorization: `Bearer ${app.token}` },
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('finds the specification in the repository', () => {
    expect(existsSync(seed), `${fileURLToPath(seed)} is missing`).toBe(true);
  });

  it('generates the types the typed tests compile against from the seed', async () => {
    // What write-generated-types.ts writes to test/generated/seed/ before tsc reads this file.
    const generated = (await generateTestTypes()).get('seed/plantstore-api.ts');
    expect(generated).toContain("'/plants': {");
    expect(generated).toMatch(/\bPlant: \{/u);
    expect(generated).toMatch(/\bError: \{/u);
  });

  it('creates a plant through the route unchanged: 200, `data` typed as the seed Plant', async () => {
    const { data, error, response } = await client.POST('/plants', {
      body: { id: 10, name: 'Calathea', tag: 'prayer plant' },
    });
    expectTypeOf(data).toEqualTypeOf<components['schemas']['Plant'] | undefined>();
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual({ name: 'Calathea', tag: 'prayer plant' });
    expect(app.store.get(10n)).toMatchObject({ id: 10n, name: 'Calathea', tag: 'prayer plant' });
  });

  it('answers a bad body 400 with a body that parses as the seed Error', async () => {
    const { data, error, response } = await client.POST('/plants', {
      body: { id: 11.5, name: 'Half' },
    });
    expectTypeOf(error).toEqualTypeOf<components['schemas']['Error'] | undefined>();
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 400, message: expect.any(String) as string });
    expect(Number.isInteger(error?.error)).toBe(true);
  });

  it('gets the statuses the seed does not list as an Error body too (409)', async () => {
    await client.POST('/plants', { body: { id: 12, name: 'Ivy' } });
    const { error, response } = await client.POST('/plants', { body: { id: 12, name: 'Pothos' } });
    expect(response.status).toBe(409);
    expect(error).toEqual({ error: 409, message: expect.any(String) as string });
  });
});
