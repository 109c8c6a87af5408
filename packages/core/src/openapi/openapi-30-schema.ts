import { mapValues } from './host-document';
import type {
  JsonSchema,
  OpenApiHeader,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiReference,
  OpenApiResponse,
} from './openapi-types';

/**
 * A Schema Object of OpenAPI 3.0 (an extended subset of JSON Schema draft 4/5): `enum` where 3.1
 * writes `const`, and a `$ref` that stands alone.
 */
export type OpenApi30Schema = { readonly [keyword: string]: unknown };

type Keywords = Required<JsonSchema>;
type Keyword = keyof Keywords;
type Translation<K extends Keyword> = (value: Keywords[K]) => OpenApi30Schema;

// One entry per keyword our JsonSchema type allows, so adding a keyword there (`examples`,
// `prefixItems`, a type list with "null") does not compile until its 3.0 form is decided here.
const TRANSLATIONS: { readonly [K in Keyword]: Translation<K> } = {
  // Handled in toOpenApi30Schema: 3.0 ignores anything beside a `$ref`.
  $ref: ($ref) => ({ $ref }),
  type: (type) => ({ type }),
  format: (format) => ({ format }),
  description: (description) => ({ description }),
  pattern: (pattern) => ({ pattern }),
  // `const` is 2020-12 (and draft 6); 3.0 has only the one-value `enum`.
  const: (value) => ({ enum: [value] }),
  required: (required) => ({ required: [...required] }),
  properties: (properties) => ({
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, toOpenApi30Schema(schema)]),
    ),
  }),
  allOf: (allOf) => ({ allOf: allOf.map(toOpenApi30Schema) }),
  // 3.0's Schema Object has one `example`, not 2020-12's list.
  examples: (examples) => (examples.length === 0 ? {} : { example: examples[0] }),
};

function translate<K extends Keyword>(keyword: K, value: Keywords[K]): OpenApi30Schema {
  return TRANSLATIONS[keyword](value);
}

/**
 * Writes one of the route's schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses it) in OpenAPI 3.0's
 * dialect: `const` becomes a one-value `enum`, `examples` its first as `example`, and a `$ref` with sibling keywords (which 3.0 would
 * ignore) is wrapped as `allOf: [{ $ref }]` beside them. Every keyword the route's schemas may hold
 * has its translation, checked by the compiler.
 *
 * @param schema - a schema of the route's document
 * @returns the same schema for an OpenAPI 3.0 document, as a new object
 * @example
 * ```ts
 * toOpenApi30Schema({ type: 'string', const: 'no-store' }); // { type: 'string', enum: ['no-store'] }
 * ```
 */
export function toOpenApi30Schema(schema: JsonSchema): OpenApi30Schema {
  const { $ref, ...rest } = schema;
  let result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(rest) as [Keyword, never][]) {
    // The compiler checks our schemas; this, a schema that reached here some other way.
    if (!Object.hasOwn(TRANSLATIONS, keyword)) {
      throw new TypeError(
        `toOpenApi30Schema: the keyword "${keyword}" has no OpenAPI 3.0 form here`,
      );
    }
    if (value !== undefined) result = { ...result, ...translate(keyword, value) };
  }
  if ($ref === undefined) return result;
  if (Object.keys(result).length === 0) return { $ref };
  const allOf = (result['allOf'] as readonly OpenApi30Schema[] | undefined) ?? [];
  return { ...result, allOf: [{ $ref }, ...allOf] };
}

/**
 * A Header Object (or a reference to one) with its schema in OpenAPI 3.0's dialect.
 *
 * @param header - a header of the route's document
 * @returns the header for an OpenAPI 3.0 document
 */
export function toOpenApi30Header(header: OpenApiHeader | OpenApiReference): unknown {
  return 'schema' in header ? { ...header, schema: toOpenApi30Schema(header.schema) } : header;
}

const toOpenApi30Content = (content: Readonly<Record<string, OpenApiMediaType>>) =>
  mapValues(content, (media) => ({ ...media, schema: toOpenApi30Schema(media.schema) }));

function toOpenApi30Response(response: OpenApiResponse): unknown {
  const { headers, content } = response;
  return {
    ...response,
    ...(headers === undefined ? {} : { headers: mapValues(headers, toOpenApi30Header) }),
    ...(content === undefined ? {} : { content: toOpenApi30Content(content) }),
  };
}

/**
 * The route's operation with every schema in it (request body, responses, response headers) in
 * OpenAPI 3.0's dialect; examples are Example Objects, which 3.0 has too.
 *
 * @param operation - the operation of the route's document
 * @returns the operation for an OpenAPI 3.0 document
 */
export function toOpenApi30Operation(operation: OpenApiOperation): unknown {
  const { requestBody, responses } = operation;
  return {
    ...operation,
    ...(requestBody === undefined
      ? {}
      : { requestBody: { ...requestBody, content: toOpenApi30Content(requestBody.content) } }),
    responses: mapValues(responses, toOpenApi30Response),
  };
}
