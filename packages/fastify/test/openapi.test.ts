import swagger from '@fastify/swagger';
import { memoryStore } from '@plantstore/core';
import { openApiDocument } from '@plantstore/core/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { plantPlugin } from '../src/index';
import { useFixture } from './fixture';
import { type FastifyFactory, majors } from './hosts';

const fixture = useFixture();

type Json = Record<string, unknown>;
const ours = openApiDocument.paths['/plants']!.post;
const statuses = Object.keys(ours.responses);

// @fastify/swagger 9 documents Fastify 5 apps, and 8 Fastify 4 apps (installed as fastify-swagger8;
// imported by a name the compiler does not follow, as its types augment the same `swagger()`).
const SWAGGER_8 = 'fastify-swagger8';
const swaggerFor = async (major: string): Promise<typeof swagger> =>
  major === 'Fastify 4'
    ? ((await import(SWAGGER_8)) as { default: typeof swagger }).default
    : swagger;

/** An app documented by @fastify/swagger, the plugin under `/api`; its document as JSON. */
async function documentOf(
  major: string,
  fastify: FastifyFactory,
  openapi: Json = {},
  openApiTag?: string,
) {
  const app = fastify();
  try {
    await app.register(await swaggerFor(major), {
      openapi: { info: { title: 'Garden', version: '1' }, ...openapi },
    });
    app.get('/garden', () => 'beds');
    await app.register(plantPlugin({ store: memoryStore(), auth: fixture.auth(), openApiTag }), {
      prefix: '/api',
    });
    await app.ready();
    const documented = app as unknown as { swagger(): unknown };
    return JSON.parse(JSON.stringify(documented.swagger())) as Json;
  } finally {
    await app.close();
  }
}

const postOf = (document: Json) =>
  (document['paths'] as Record<string, Record<string, Json>>)['/api/plants']!['post']!;

async function expectValid(document: Json): Promise<void> {
  const result = await new Validator().validate(document);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
}

for (const [name, fastify] of majors) {
  describe(`${name}: @fastify/swagger lists the route with nothing for the host to do`, () => {
    it('in its default OpenAPI 3.0.3 document: body, every response, bearer scheme, 3.0 schemas', async () => {
      const document = await documentOf(name, fastify);
      expect(document['openapi']).toBe('3.0.3');
      expect(Object.keys(document['paths'] as Json)).toStrictEqual(['/garden', '/api/plants']);
      const post = postOf(document);
      expect(post['operationId']).toBe('createPlant');
      expect(post['tags']).toStrictEqual(['plants']);
      expect(post['security']).toStrictEqual([{ bearerAuth: [] }]);
      expect(post['description']).toBe(
        `${ours.description}\n\nThe token must grant the scope \`plants:write\`.`,
      );
      expect(Object.keys(post['responses'] as Json)).toStrictEqual(statuses);
      const body = post['requestBody'] as { content: Record<string, { schema: Json }> };
      expect(body.content['application/json']!.schema['allOf']).toMatchObject([
        { type: 'object', required: ['name'] },
        {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', format: 'int64' } },
        },
      ]);
      const conflict = (post['responses'] as Record<string, Json>)['409']!;
      expect(conflict['description']).toBe(ours.responses['409']!.description);
      expect(conflict['headers']).toMatchObject({
        'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
      });
      // 3.0 has one `example` where 3.1 has an `examples` list.
      const { examples, ...errorSchema } = openApiDocument.components.schemas['Error']!;
      expect(conflict['content']).toStrictEqual({
        'application/json': {
          schema: { ...errorSchema, example: examples?.[0] },
          examples: ours.responses['409']!.content!['application/json']!.examples,
        },
      });
      expect((document['components'] as Json)['securitySchemes']).toStrictEqual(
        openApiDocument.components.securitySchemes,
      );
      expect(JSON.stringify(post)).not.toContain('"const"');
      await expectValid(document);
    });

    it('in an OpenAPI 3.1 document with a bearer scheme of its own, which the route names, under its tag', async () => {
      const sso = { type: 'http', scheme: 'bearer', description: 'Our SSO' };
      const document = await documentOf(
        name,
        fastify,
        { openapi: '3.1.0', components: { securitySchemes: { sso } } },
        'garden',
      );
      const post = postOf(document);
      expect(post['tags']).toStrictEqual(['garden']);
      // @fastify/swagger lifts the body schema's `examples` to the media type's `example`.
      const body = post['requestBody'] as { content: Record<string, Json> };
      expect(body.content['application/json']!['example']).toStrictEqual({
        id: 10,
        name: 'Fern',
        tag: 'indoor',
      });
      expect(post['security']).toStrictEqual([{ sso: ['plants:write'] }]);
      expect((document['components'] as Json)['securitySchemes']).toStrictEqual({ sso });
      const headers = (post['responses'] as Record<string, Json>)['200']!['headers'];
      expect(headers).toMatchObject({ 'Cache-Control': { schema: { const: 'no-store' } } });
      await expectValid(document);
    });
  });
}

for (const [name, fastify] of majors) {
  describe(`${name}: the route's schema checks nothing`, () => {
    it('answers a body that schema would refuse with the core answer, ids exact', async () => {
      const store = memoryStore();
      const app = fastify();
      await app.register(plantPlugin({ store, auth: fixture.auth() }), { prefix: '/api' });
      const post = (payload: string) =>
        app.inject({
          method: 'POST',
          url: '/api/plants',
          payload,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.token}` },
        });
      try {
        const refused = await post('{"id":"1"}');
        expect([refused.statusCode, refused.json()]).toStrictEqual([
          400,
          {
            error: 400,
            message:
              'The plant is invalid: id: expected an integer from -9223372036854775808 to 9223372036854775807, received a string; name: is required.',
          },
        ]);
        // 2^53 + 1 and 2^53 are one number as a float: two plants only if the id stays exact.
        const big = await post('{"id":9007199254740993,"name":"Big"}');
        const next = await post('{"id":9007199254740992,"name":"Next"}');
        const again = await post('{"id":9007199254740993,"name":"Big"}');
        expect([big.body, next.body, again.body]).toStrictEqual([
          '{"name":"Big"}',
          '{"name":"Next"}',
          '{"name":"Big"}',
        ]);
        expect([big.statusCode, next.statusCode, again.statusCode]).toStrictEqual([200, 200, 200]);
        expect(store.get(9007199254740993n)?.name).toBe('Big');
      } finally {
        await app.close();
      }
    });
  });
}
