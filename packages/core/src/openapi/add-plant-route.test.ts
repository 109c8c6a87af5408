import { describe, expect, expectTypeOf, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { deepFreeze } from '../common/deep-freeze';
import { addPlantRoute } from './add-plant-route';
import { createOpenApiDocument } from './openapi-document';
import type { OpenApiHostDocument } from './openapi-types';
import { openApiErrors } from './openapi-validator.test-support';

type Json = Record<string, unknown>;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The route's own document (3.1), the source every expectation below is written from. */
const ours = createOpenApiDocument({ basePath: '/api' });
const ourOperation = ours.paths['/api/plants']!.post;
const SCOPE_NOTE = '\n\nThe token must grant the scope `plants:write`.';

/** The route's operation as a merge with `requiredScopes: ['plants:write']` writes it. */
const operation = (security: Json) => ({
  ...clone(ourOperation),
  description: `${ourOperation.description}${SCOPE_NOTE}`,
  security: [security],
});

/**
 * The route's components in a 3.0 document: the one `const` (Cache-Control) becomes an `enum`, and
 * each schema's `examples` list its one `example`.
 */
const components30 = () => {
  const components = clone(ours.components) as unknown as {
    headers: Record<string, { schema: Json }>;
    schemas: Record<string, Json>;
  };
  for (const header of Object.values(components.headers)) {
    const { const: only, ...rest } = header.schema as { const?: string };
    if (only !== undefined) header.schema = { ...rest, enum: [only] };
  }
  for (const schema of Object.values(components.schemas)) {
    const { examples } = schema as { examples: unknown[] };
    delete schema['examples'];
    schema['example'] = examples[0];
  }
  return components as unknown as Json;
};
const componentsFor = (openapi: string): Json =>
  openapi.startsWith('3.0') ? components30() : clone(ours.components);

/** A host's own document: one route, servers, a global security requirement, tags. */
function hostDocument(openapi: string, components?: Json): OpenApiHostDocument & Json {
  return deepFreeze({
    openapi,
    info: { title: 'Garden', version: '2.0.0' },
    servers: [{ url: 'https://garden.example' }],
    security: [{ apiKey: [] }],
    tags: [{ name: 'garden' }],
    paths: {
      '/garden': {
        get: {
          operationId: 'listBeds',
          tags: ['garden'],
          responses: { '200': { description: 'The beds' } },
        },
      },
    },
    ...(components === undefined ? {} : { components }),
  });
}

const hostComponents = (): Json => ({
  schemas: { Bed: { type: 'object', properties: { rows: { type: 'integer' } } } },
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
});

const merge = <T extends OpenApiHostDocument>(document: T, options = {}): T =>
  addPlantRoute(document, { basePath: '/api', requiredScopes: ['plants:write'], ...options });

describe('addPlantRoute on a table of host documents', () => {
  const table = [
    { openapi: '3.0.3', has: 'no components', components: undefined, scopes: [] },
    { openapi: '3.1.0', has: 'no components', components: undefined, scopes: ['plants:write'] },
    { openapi: '3.0.3', has: 'components', components: hostComponents(), scopes: [] },
    { openapi: '3.1.0', has: 'components', components: hostComponents(), scopes: ['plants:write'] },
  ];
  it.each(table)(
    'adds the route to an OpenAPI $openapi host with $has, leaving the host unchanged',
    async ({ openapi, components, scopes }) => {
      const host = hostDocument(openapi, components);
      const before = clone(host);
      const merged = merge(host) as Json;
      expect(host).toStrictEqual(before);
      const ourComponents = componentsFor(openapi) as Record<string, Json>;
      const theirs = (components ?? {}) as Record<string, Json>;
      expect(merged).toStrictEqual({
        ...before,
        paths: {
          ...before['paths']!,
          '/api/plants': { post: operation({ bearerAuth: scopes }) },
        },
        components: {
          ...theirs,
          schemas: { ...theirs['schemas'], ...ourComponents['schemas'] },
          headers: ourComponents['headers'],
          securitySchemes: { ...theirs['securitySchemes'], ...ourComponents['securitySchemes'] },
        },
      });
      expect(await openApiErrors(merged)).toStrictEqual([]);
    },
  );

  it('refuses a host schema of one of the route names, and names the fix', () => {
    const host = hostDocument('3.0.3', { schemas: { Error: { type: 'string' } } });
    expect(() => merge(host)).toThrow(
      new TypeError(
        "addPlantRoute: the document already has a different components.schemas.Error; pass componentPrefix (such as 'Plantstore', which names it PlantstoreError) so that the route's components cannot take the place of the host's",
      ),
    );
  });

  it('names every component with componentPrefix, and points every $ref at the new names', async () => {
    const host = hostDocument('3.1.0', { schemas: { Error: { type: 'string' } } });
    const merged = merge(host, { componentPrefix: 'Plantstore' }) as Json;
    const components = merged['components'] as Record<string, Json>;
    expect(Object.keys(components['schemas']!)).toStrictEqual([
      'Error',
      'PlantstorePlant',
      'PlantstoreNewPlant',
      'PlantstoreError',
    ]);
    expect(components['schemas']!['Error']).toStrictEqual({ type: 'string' });
    expect(Object.keys(components['headers']!)).toStrictEqual([
      'PlantstoreCacheControl',
      'PlantstoreVary',
      'PlantstoreRetryAfter',
      'PlantstoreAccept',
      'PlantstoreAcceptEncoding',
    ]);
    expect(Object.keys(components['securitySchemes']!)).toStrictEqual(['PlantstoreBearerAuth']);
    const text = JSON.stringify((merged['paths'] as Json)['/api/plants']);
    expect(text.match(/"\$ref":"[^"]*"/gu)?.sort()).toStrictEqual(
      JSON.stringify(ourOperation)
        .match(/"\$ref":"[^"]*"/gu)
        ?.map((ref) => ref.replace(/\/(?=[^/]*"$)/u, '/Plantstore'))
        .sort(),
    );
    expect(
      (components['schemas']!['PlantstoreNewPlant'] as { allOf: Json[] }).allOf[0],
    ).toStrictEqual({ $ref: '#/components/schemas/PlantstorePlant' });
    const post = ((merged['paths'] as Json)['/api/plants'] as { post: Json }).post;
    expect(post['security']).toStrictEqual([{ PlantstoreBearerAuth: ['plants:write'] }]);
    expect(await openApiErrors(merged)).toStrictEqual([]);
  });

  it('refuses a prefixed name the host also has', () => {
    const host = hostDocument('3.1.0', { headers: { PlantstoreVary: { schema: {} } } });
    expect(() => merge(host, { componentPrefix: 'Plantstore' })).toThrow(
      /components\.headers\.PlantstoreVary; pass another componentPrefix/u,
    );
  });

  it('keeps a component the host already has exactly, once', async () => {
    const once = merge(hostDocument('3.0.3'));
    const twice = merge(once, { basePath: '/v2', operationId: 'createPlantV2' }) as Json;
    expect(twice['components']).toStrictEqual((once as Json)['components']);
    expect(Object.keys(twice['paths'] as Json)).toStrictEqual([
      '/garden',
      '/api/plants',
      '/v2/plants',
    ]);
    expect(await openApiErrors(twice)).toStrictEqual([]);
  });

  it('adds POST beside the methods of a path item the host already has', async () => {
    const host = hostDocument('3.1.0');
    const withGet = {
      ...host,
      paths: { '/api/plants': { get: { responses: { '200': { description: 'All' } } } } },
    };
    const merged = merge(withGet) as { paths: Record<string, Json> };
    expect(Object.keys(merged.paths['/api/plants']!)).toStrictEqual(['get', 'post']);
    expect(await openApiErrors(merged)).toStrictEqual([]);
  });

  it('refuses a host that already has POST at the path', () => {
    const host = {
      ...hostDocument('3.0.3'),
      paths: { '/api/plants': { post: { responses: { '201': { description: 'Made' } } } } },
    };
    expect(() => merge(host)).toThrow(
      new TypeError(
        'addPlantRoute: the document already has POST /api/plants (or a path item there it cannot extend); mount the route at another basePath',
      ),
    );
  });

  it.each(['3.0.3', '3.1.0'])(
    'uses the HTTP Bearer scheme an OpenAPI %s host already has',
    async (openapi) => {
      const jwt = { type: 'http', scheme: 'Bearer', description: 'Our SSO tokens' };
      const merged = merge(hostDocument(openapi, { securitySchemes: { jwt } })) as Json;
      const components = merged['components'] as Record<string, Json>;
      expect(components['securitySchemes']).toStrictEqual({ jwt });
      const post = ((merged['paths'] as Json)['/api/plants'] as { post: Json }).post;
      expect(post['security']).toStrictEqual([
        { jwt: openapi === '3.0.3' ? [] : ['plants:write'] },
      ]);
      expect(await openApiErrors(merged)).toStrictEqual([]);
    },
  );

  it('refuses a host scheme named bearerAuth that is not a bearer scheme', () => {
    const apiKey = { type: 'apiKey', in: 'header', name: 'X-Key' };
    const host = hostDocument('3.1.0', { securitySchemes: { bearerAuth: apiKey } });
    expect(() => merge(host)).toThrow(/components\.securitySchemes\.bearerAuth;/u);
  });

  it('refuses an operationId the host already uses', () => {
    expect(() => merge(hostDocument('3.1.0'), { operationId: 'listBeds' })).toThrow(
      new TypeError(
        'addPlantRoute: the document already has an operation with operationId "listBeds" (GET /garden); pass the option operationId to name the route\'s operation otherwise',
      ),
    );
  });
});

describe('addPlantRoute options', () => {
  it('reads the scopes from the route authenticator', () => {
    const auth = jwtBearer({ secret: new Uint8Array(32), requiredScopes: ['a:b', 'c'] });
    const merged = addPlantRoute(hostDocument('3.1.0'), { auth }) as { paths: Json };
    const post = (merged.paths['/plants'] as { post: Json }).post;
    expect(post['security']).toStrictEqual([{ bearerAuth: ['a:b', 'c'] }]);
    expect(post['description']).toBe(
      `${ourOperation.description}\n\nThe token must grant the scopes \`a:b\`, \`c\`.`,
    );
  });

  it('writes no scopes and no note without them', () => {
    const merged = addPlantRoute(hostDocument('3.1.0')) as { paths: Json };
    const post = (merged.paths['/plants'] as { post: Json }).post;
    expect(post['security']).toStrictEqual([{ bearerAuth: [] }]);
    expect(post['description']).toBe(ourOperation.description);
  });

  it.each([
    [{ basePath: 'api' }, /^addPlantRoute: option "basePath" must be ""/u],
    [{ componentPrefix: 'Plant store' }, /option "componentPrefix" must be letters/u],
    [{ operationId: '' }, /option "operationId" must be a non-empty string/u],
    [{ requiredScopes: ['a b'] }, /option "requiredScopes" must hold scope tokens/u],
    [{ auth: jwtBearer({ secret: new Uint8Array(32) }), requiredScopes: [] }, /"auth" must not/u],
    [
      { componentPrefx: 'X' },
      /unknown option "componentPrefx" \(did you mean "componentPrefix"\?\)/u,
    ],
  ])('refuses %o', (options, message) => {
    expect(() => addPlantRoute(hostDocument('3.1.0'), options as object)).toThrow(message);
  });

  it.each([
    [{ swagger: '2.0' }, 'received "openapi": undefined'],
    [{ openapi: '3.2.0' }, 'received "3.2.0"'],
    [{ openapi: 3.1 }, 'received "openapi": 3.1'],
    [null, 'received null'],
  ])('refuses a document that is not OpenAPI 3.0 or 3.1: %o', (document, received) => {
    expect(() => addPlantRoute(document as unknown as OpenApiHostDocument)).toThrow(
      `addPlantRoute: the document must be an OpenAPI 3.0.x or 3.1.x document (its "openapi" field); ${received}`,
    );
  });

  it('refuses a document whose paths are not an object', () => {
    const document = { openapi: '3.0.0', paths: [] };
    expect(() => addPlantRoute(document)).toThrow(
      "addPlantRoute: the document's paths must be an object; received an array of 0 items",
    );
  });
});

describe('addPlantRoute types', () => {
  it("returns the host document's own type, and takes an interface without an index signature", () => {
    // As Nest's OpenAPIObject is: an interface, `paths` required.
    interface NestLikeDocument {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, object>;
      components?: { schemas?: Record<string, object> };
    }
    const host: NestLikeDocument = {
      openapi: '3.0.0',
      info: { title: 'x', version: '1' },
      paths: {},
    };
    expectTypeOf(addPlantRoute(host, { basePath: '/api' })).toEqualTypeOf<NestLikeDocument>();
    // @ts-expect-error a misspelt option is a compile error
    expect(() => addPlantRoute(host, { basePaht: '/api' })).toThrow(/did you mean "basePath"/u);
  });
});

describe('the validator the merge is checked with', () => {
  it('refuses the 3.1 schemas in a 3.0 document, so the 3.0 results above prove something', async () => {
    const mixed = { ...clone(ours), openapi: '3.0.3', servers: [{ url: '/' }] };
    expect(await openApiErrors(mixed)).not.toStrictEqual([]);
  });

  it('refuses a $ref that resolves nowhere', async () => {
    const broken = clone(ours) as unknown as { components: { schemas: Json } };
    delete broken.components.schemas['Plant'];
    expect(await openApiErrors(broken)).not.toStrictEqual([]);
  });
});
