import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document';
import { openApiErrors } from './openapi-validator.test-support';
import { plantOperation } from './plant-operation';

const info = { title: 'Garden', version: '1' };

describe('plantOperation', () => {
  it.each(['3.0.3', '3.1.0'])(
    'writes the operation for an OpenAPI %s document with no $ref, valid on its own',
    async (openapi) => {
      const { operation, securitySchemes } = plantOperation(
        { openapi },
        { requiredScopes: ['plants:write'] },
      );
      expect(JSON.stringify(operation)).not.toContain('$ref');
      expect(JSON.stringify(operation).includes('"const"')).toBe(openapi === '3.1.0');
      expect(securitySchemes).toStrictEqual(openApiDocument.components.securitySchemes);
      const document = {
        openapi,
        info,
        paths: { '/plants': { post: operation } },
        components: { securitySchemes },
      };
      expect(await openApiErrors(document)).toStrictEqual([]);
    },
  );

  it('names the bearer scheme the host already has, and reads nothing else of it', () => {
    const sso = { type: 'http', scheme: 'bearer' };
    const host = {
      openapi: '3.1.0',
      paths: { '/plants': { post: { responses: {} } } },
      components: { schemas: { Plant: { type: 'string' } }, securitySchemes: { sso } },
    };
    const { operation, securitySchemes } = plantOperation(host, { requiredScopes: ['a'] });
    expect(operation['security']).toStrictEqual([{ sso: ['a'] }]);
    expect(securitySchemes).toStrictEqual({ sso });
  });

  it('refuses what addPlantRoute refuses', () => {
    expect(() => plantOperation({ openapi: '2.0' })).toThrow(/OpenAPI 3\.0\.x or 3\.1\.x/u);
    expect(() => plantOperation({ openapi: '3.1.0' }, { requiredScopes: ['a b'] })).toThrow(
      /requiredScopes/u,
    );
  });
});
