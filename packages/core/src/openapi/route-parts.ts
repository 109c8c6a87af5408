import { type JsonObject, isJsonObject, mapValues, type OpenApiVersion } from './host-document';
import { createOpenApiDocument } from './openapi-document';
import { toOpenApi30Header, toOpenApi30Operation, toOpenApi30Schema } from './openapi-30-schema';

/** The component maps the route brings, by kind, each under the name it gets in the host's document. */
export interface RouteComponents {
  readonly schemas: JsonObject;
  readonly headers: JsonObject;
  readonly securitySchemes: JsonObject;
}

/** The route as it goes into a host's document. */
export interface RouteParts {
  /** `{basePath}/plants`. */
  readonly path: string;
  /** Its POST operation, without `security` (the merge decides the scheme's name). */
  readonly operation: JsonObject;
  readonly components: RouteComponents;
}

/** A component's name in the host's document: `Plant`, or `PlantstorePlant` with a prefix. */
export const componentName = (prefix: string, name: string): string =>
  prefix === '' ? name : `${prefix}${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** A copy of a JSON tree with each `$ref` that `renamed` knows pointed at its new name. */
function rewriteRefs(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renamed));
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === '$ref' && typeof member === 'string'
        ? (renamed.get(member) ?? member)
        : rewriteRefs(member, renamed),
    ]),
  );
}

const renameKeys = (map: object, prefix: string): JsonObject =>
  Object.fromEntries(
    Object.entries(map).map(([name, value]) => [componentName(prefix, name), value]),
  );

/**
 * The route's path, operation and components, from the very document {@link createOpenApiDocument}
 * builds (one source), renamed with `prefix` and written for the host's OpenAPI version.
 *
 * @param settings - the checked, normalised mount path, the component prefix (`''` for none) and the tag
 * @param version - the host document's version
 * @returns fresh objects the merge may use as they are
 */
export function routeParts(
  settings: { readonly basePath: string; readonly prefix: string; readonly tag: string },
  version: OpenApiVersion,
): RouteParts {
  const { basePath, prefix, tag } = settings;
  const document = createOpenApiDocument({ basePath, tag });
  const [path, item] = Object.entries(document.paths)[0] ?? [];
  if (path === undefined || item === undefined) throw new Error('openapi: the route has no path');
  const { schemas, headers, securitySchemes } = document.components;
  const renamed = new Map<string, string>();
  for (const [kind, map] of Object.entries({ schemas, headers })) {
    for (const name of Object.keys(map)) {
      renamed.set(
        `#/components/${kind}/${name}`,
        `#/components/${kind}/${componentName(prefix, name)}`,
      );
    }
  }
  const old = version === '3.0';
  const rewrite = (value: unknown) => rewriteRefs(value, renamed) as JsonObject;
  return {
    path,
    operation: rewrite(old ? toOpenApi30Operation(item.post) : item.post),
    components: {
      schemas: rewrite(renameKeys(old ? mapValues(schemas, toOpenApi30Schema) : schemas, prefix)),
      headers: rewrite(renameKeys(old ? mapValues(headers, toOpenApi30Header) : headers, prefix)),
      securitySchemes: rewrite(renameKeys(securitySchemes, prefix)),
    },
  };
}
