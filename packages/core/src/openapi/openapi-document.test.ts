import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument, openApiDocument } from './openapi-document';
import { toJsonSchema } from './json-schema';
import type { OpenApiHeader, OpenApiReference, OpenApiResponse } from './openapi-types';
import { openApiErrors } from './openapi-validator.test-support';

import { ErrorSchema, PlantSchema } from '../plant/schemas';

/** The interface specification's own OpenAPI document, committed in `spec/`. */
const seedUrl = new URL('../../../../spec/plant-store.openapi.json', import.meta.url);
const seed: unknown = JSON.parse(readFileSync(seedUrl, 'utf8'));

/** Seed entries the generated document deliberately does not keep, with the reason. */
const DEPARTURES: Readonly<Record<string, string>> = {
  // It describes the seed file itself ("see … beside this file", "only what the specification shows").
  '$.info.description': 'describes the seed file, not the interface',
};

/** Arrays whose members must be exactly the seed's (a `required` list that grew changes the contract). */
const EXACT_SETS = new Set(['required']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const step = (path: string, key: string | number): string =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/u.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

/**
 * Lists every place where `seed` is not contained in `generated`: objects may gain keys, arrays are
 * compared as sets (each seed member must match some generated member), and a description may only
 * gain paragraphs after the seed's text, which stays verbatim as the first one.
 */
function notContained(seed: unknown, generated: unknown, path = '$', key = ''): string[] {
  if (path in DEPARTURES) return [];
  if (Array.isArray(seed)) {
    if (!Array.isArray(generated)) return [`${path}: expected an array`];
    if (EXACT_SETS.has(key)) {
      const same =
        seed.length === generated.length &&
        seed.every((item) => generated.some((other) => Object.is(item, other)));
      return same
        ? []
        : [`${path}: expected exactly ${JSON.stringify(seed)}, got ${JSON.stringify(generated)}`];
    }
    return seed.flatMap((item, index) =>
      generated.some((other) => notContained(item, other, step(path, index)).length === 0)
        ? []
        : [
            `${step(path, index)}: no member of the generated array contains ${JSON.stringify(item)}`,
          ],
    );
  }
  if (isRecord(seed)) {
    if (!isRecord(generated)) return [`${path}: expected an object`];
    return Object.entries(seed).flatMap(([name, value]) =>
      Object.hasOwn(generated, name)
        ? notContained(value, generated[name], step(path, name), name)
        : [`${step(path, name)}: missing`],
    );
  }
  if (Object.is(seed, generated)) return [];
  if (key === 'description' && typeof seed === 'string' && typeof generated === 'string') {
    if (generated.startsWith(`${seed}\n\n`)) return [];
  }
  return [`${path}: expected ${JSON.stringify(seed)}, got ${JSON.stringify(generated)}`];
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('the seed containment check', () => {
  it('resolves the specification committed in the repository', () => {
    expect(fileURLToPath(seedUrl)).toMatch(/[\\/]spec[\\/]plant-store\.openapi\.json$/u);
    expect(isRecord(seed) && seed['openapi']).toBe('3.1.0');
  });

  it('finds a changed type, a lost $ref, a grown required list and a rewritten description', () => {
    const changed = clone(openApiDocument) as unknown as {
      components: {
        schemas: Record<
          string,
          { properties?: Record<string, { type: string }>; required?: string[]; allOf?: unknown[] }
        >;
      };
      paths: Record<string, { post: { description: string } }>;
    };
    const schemas = changed.components.schemas;
    schemas['Plant']!.properties!['name']!.type = 'integer';
    schemas['Plant']!.required = ['name', 'tag'];
    schemas['NewPlant']!.allOf!.shift();
    changed.paths['/plants']!.post.description = 'Creates plants';
    expect(notContained(seed, changed)).toStrictEqual([
      '$.paths["/plants"].post.description: expected "Creates a new plant in the store", got "Creates plants"',
      '$.components.schemas.Plant.required: expected exactly ["name"], got ["name","tag"]',
      '$.components.schemas.Plant.properties.name.type: expected "string", got "integer"',
      '$.components.schemas.NewPlant.allOf[0]: no member of the generated array contains {"$ref":"#/components/schemas/Plant"}',
    ]);
  });
});

describe('openApiDocument', () => {
  it('is a valid OpenAPI 3.1 document whose every $ref resolves', async () => {
    expect(await openApiErrors(openApiDocument)).toStrictEqual([]);
    expect(await openApiErrors(createOpenApiDocument({ basePath: '/v1' }))).toStrictEqual([]);
  });

  it('contains every path, operation, field, type, format, required list, $ref, description and security entry of the seed', () => {
    expect(notContained(seed, openApiDocument)).toStrictEqual([]);
  });

  it('documents every status of the contract, each error with the Error schema', () => {
    const responses = openApiDocument.paths['/plants']?.post.responses ?? {};
    const statuses = ['200', '400', '401', '403', '408', '409', '413', '415', '500', '503'];
    expect(Object.keys(responses).sort()).toStrictEqual(statuses);
    for (const status of statuses.slice(1)) {
      expect(responses[status]?.content?.['application/json']?.schema).toStrictEqual({
        $ref: '#/components/schemas/Error',
      });
      expect(responses[status]?.description.length).toBeGreaterThan(20);
    }
  });

  it('notes the headers each answer carries', () => {
    const responses: Readonly<Record<string, OpenApiResponse>> =
      openApiDocument.paths['/plants']?.post.responses ?? {};
    const headersOf = (
      status: string,
    ): Readonly<Record<string, OpenApiHeader | OpenApiReference>> =>
      responses[status]?.headers ?? {};
    for (const status of Object.keys(responses)) {
      expect(headersOf(status)['Cache-Control']).toStrictEqual({
        $ref: '#/components/headers/CacheControl',
      });
      expect(headersOf(status)['Vary']).toStrictEqual({ $ref: '#/components/headers/Vary' });
    }
    for (const status of ['400', '401', '403'])
      expect(headersOf(status)['WWW-Authenticate']).toBeDefined();
    expect(headersOf('503')['Retry-After']).toStrictEqual({
      $ref: '#/components/headers/RetryAfter',
    });
    expect(openApiDocument.components.headers['CacheControl']?.schema.const).toBe('no-store');
    // The route names what it reads on a 415 (RFC 9110 §15.5.16, §12.5.3).
    expect(headersOf('415')['Accept']).toStrictEqual({ $ref: '#/components/headers/Accept' });
    expect(headersOf('415')['Accept-Encoding']).toStrictEqual({
      $ref: '#/components/headers/AcceptEncoding',
    });
    expect(openApiDocument.components.headers['Accept']?.schema.const).toBe('application/json');
    expect(openApiDocument.components.headers['AcceptEncoding']?.schema.const).toBe('identity');
  });

  it('answers a repeated Authorization field 400 and a malformed one 401, as the route does', () => {
    const responses = openApiDocument.paths['/plants']?.post.responses;
    expect(responses?.['400']?.description).toContain(
      'when the `Authorization` field is repeated (a malformed one answers 401)',
    );
  });

  it('describes the bearer scheme as a JWT and the request body rules', () => {
    expect(openApiDocument.components.securitySchemes['bearerAuth']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    const body = openApiDocument.paths['/plants']?.post.requestBody;
    expect(body?.description).toContain('`utf-8`');
    expect(body?.description).toContain('16 KiB');
  });

  it('uses the real messages of the code in its examples', () => {
    const examples =
      openApiDocument.paths['/plants']?.post.responses['400']?.content?.['application/json']
        ?.examples;
    expect(examples?.['schema']?.value).toStrictEqual({
      error: 400,
      message:
        'The plant is invalid: id: expected an integer from -9223372036854775808 to 9223372036854775807, received a string; name: is required.',
    });
  });

  it('is deeply frozen and survives a JSON round trip unchanged', () => {
    expect(Object.isFrozen(openApiDocument.components.schemas['Plant']?.properties?.['name'])).toBe(
      true,
    );
    expect(clone(openApiDocument)).toStrictEqual(openApiDocument);
  });
});

describe('createOpenApiDocument', () => {
  it('puts the route under the base path and the server URL in the base_url variable', () => {
    const doc = createOpenApiDocument({ serverUrl: 'https://api.example.com', basePath: '/v1/' });
    expect(Object.keys(doc.paths)).toStrictEqual(['/v1/plants']);
    expect(doc.servers[0]?.url).toBe('{base_url}');
    expect(doc.servers[0]?.variables?.['base_url']?.default).toBe('https://api.example.com');
  });

  it('refuses a base path that is not a path prefix', () => {
    for (const basePath of ['v1', '/v1?x', '/{id}', '/a b', '/a//b']) {
      expect(() => createOpenApiDocument({ basePath })).toThrow(TypeError);
    }
  });

  it('refuses a misspelt option and a server URL that is not a string, naming them', () => {
    expect(() => createOpenApiDocument({ basPath: '/api' } as never)).toThrow(
      new TypeError('createOpenApiDocument: unknown option "basPath" (did you mean "basePath"?)'),
    );
    expect(() => createOpenApiDocument({ serverUrl: 3000 } as never)).toThrow(
      /^createOpenApiDocument: option "serverUrl" must be a URL; received 3000$/,
    );
  });

  it('treats a lone slash as the root', () => {
    expect(Object.keys(createOpenApiDocument({ basePath: '/' }).paths)).toStrictEqual(['/plants']);
  });

  it('returns a fresh document each time', () => {
    expect(createOpenApiDocument()).not.toBe(createOpenApiDocument());
    expect(createOpenApiDocument()).toStrictEqual(openApiDocument);
  });
});

describe('toJsonSchema', () => {
  it('generates the seed Plant and Error schemas from the valibot schemas', () => {
    expect(toJsonSchema(PlantSchema)).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', description: 'The name of the plant', pattern: '^[^\\u0000]*$' },
        tag: { type: 'string', description: 'Tag that specifies the type of the plant' },
      },
    });
    expect(toJsonSchema(ErrorSchema)).toMatchObject({
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
    });
  });

  it('refuses what it does not know instead of guessing', () => {
    expect(() => toJsonSchema(v.array(v.string()))).toThrow(TypeError);
    expect(() => toJsonSchema(v.pipe(v.string(), v.email()))).toThrow(TypeError);
    expect(() => toJsonSchema(v.pipe(v.number(), v.integer(), v.minValue(0)))).toThrow(TypeError);
    expect(() => toJsonSchema(v.object({ a: v.optional(v.string(), 'x') }))).toThrow(TypeError);
    expect(() => toJsonSchema(v.number())).toThrow(TypeError);
  });
});
