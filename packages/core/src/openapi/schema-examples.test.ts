import { describe, expect, it } from 'vitest';
import { addPlantRoute } from './add-plant-route';
import { createOpenApiDocument } from './openapi-document';
import { plantOperation } from './plant-operation';
import { openApiErrors } from './openapi-validator.test-support';

type Json = Record<string, unknown>;

const FERN = { name: 'Fern', tag: 'indoor' };
const NEW_FERN = { id: 10, name: 'Fern', tag: 'indoor' };
const CONFLICT = {
  error: 409,
  message:
    'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.',
};

/** What a viewer reads as each status's sample body: the single example of its media type. */
function errorExamples(post: Json): Record<string, unknown> {
  const responses = post['responses'] as Record<string, { content?: Record<string, Json> }>;
  return Object.fromEntries(
    Object.entries(responses)
      .filter(([status]) => status !== '200')
      .map(([status, response]) => {
        const examples = response.content?.['application/json']?.['examples'] as
          Record<string, { value: unknown }> | undefined;
        return [status, Object.values(examples ?? {}).map(({ value }) => value)];
      }),
  );
}

const host = (openapi: string) => ({
  openapi,
  info: { title: 'Garden', version: '1' },
  paths: {},
});

describe('the examples a viewer such as Swagger UI shows', () => {
  it.each([
    ['3.1.0', 'examples', [FERN], [NEW_FERN], [CONFLICT]],
    ['3.0.3', 'example', FERN, NEW_FERN, CONFLICT],
  ])(
    'are in the %s document merged for a host, as its dialect writes them, and it is valid',
    async (openapi, keyword, plant, newPlant, error) => {
      const merged = addPlantRoute(host(openapi), { basePath: '/api' }) as unknown as {
        components: { schemas: Record<string, Json> };
        paths: Record<string, { post: Json }>;
      };
      const { schemas } = merged.components;
      expect(schemas['Plant']?.[keyword]).toStrictEqual(plant);
      expect(schemas['NewPlant']?.[keyword]).toStrictEqual(newPlant);
      expect(schemas['Error']?.[keyword]).toStrictEqual(error);
      const other = keyword === 'example' ? 'examples' : 'example';
      expect(Object.values(schemas).some((schema) => other in schema)).toBe(false);
      expect(await openApiErrors(merged)).toStrictEqual([]);
    },
  );

  it('give each error status at least one Error body of that status, with a real message', () => {
    const post = createOpenApiDocument().paths['/plants']!.post as unknown as Json;
    const examples = errorExamples(post);
    expect(Object.keys(examples).sort()).toStrictEqual(
      ['400', '401', '403', '408', '409', '413', '415', '500', '503'].sort(),
    );
    for (const [status, values] of Object.entries(examples)) {
      expect((values as Json[]).length).toBeGreaterThan(0);
      for (const value of values as Json[]) {
        expect(value['error']).toBe(Number(status));
        expect(value['message']).toMatch(/^[A-Z].+\.$/u);
      }
    }
    expect(examples['415']).toStrictEqual([
      {
        error: 415,
        message:
          'The request body must be sent with Content-Type: application/json (charset, if given, utf-8).',
      },
    ]);
    expect(examples['500']).toStrictEqual([
      { error: 500, message: 'The plant could not be created because of an internal error.' },
    ]);
    expect(examples['503']).toStrictEqual([
      { error: 503, message: 'The service is temporarily unavailable; retry later.' },
    ]);
  });
});

describe('the tag the route is listed under', () => {
  it('is plants unless the host names another', () => {
    expect(createOpenApiDocument().paths['/plants']!.post.tags).toStrictEqual(['plants']);
    const ours = createOpenApiDocument({ basePath: '/v1', tag: 'Garden' });
    expect(ours.paths['/v1/plants']!.post.tags).toStrictEqual(['Garden']);
  });

  it('is the option tag in a merged document and in the operation for Fastify', async () => {
    const merged = addPlantRoute(host('3.0.3'), { tag: 'garden' }) as unknown as {
      paths: Record<string, { post: Json }>;
    };
    expect(merged.paths['/plants']?.post['tags']).toStrictEqual(['garden']);
    expect(await openApiErrors(merged)).toStrictEqual([]);
    expect(plantOperation(host('3.1.0')).operation['tags']).toStrictEqual(['plants']);
    expect(plantOperation(host('3.1.0'), { tag: 'beds' }).operation['tags']).toStrictEqual([
      'beds',
    ]);
  });

  it.each([
    ['', 'a string of 0 characters'],
    ['  ', 'a string of 2 characters'],
    [7, '7'],
  ])('refuses the tag %o, naming the function', (tag, received) => {
    expect(() => createOpenApiDocument({ tag: tag as string })).toThrow(
      new TypeError(
        `createOpenApiDocument: option "tag" must be a non-empty string; received ${received}`,
      ),
    );
    expect(() => addPlantRoute(host('3.1.0'), { tag: tag as string })).toThrow(
      new TypeError(`addPlantRoute: option "tag" must be a non-empty string; received ${received}`),
    );
  });
});
