import { addPlantRoute } from './add-plant-route';
import { type JsonObject, isJsonObject, MERGE, openApiVersion } from './host-document';
import type { AddPlantRouteOptions, OpenApiHostDocument } from './openapi-types';

/**
 * What {@link plantOperation} returns: the route's operation on its own, and the security scheme
 * the document must hold for it.
 */
export interface PlantOperation {
  /** The Operation Object, every schema and header written in place (no `$ref`). */
  readonly operation: Readonly<Record<string, unknown>>;
  /**
   * The scheme its `security` names, by name: the host's own HTTP Bearer scheme when it has one
   * (then nothing needs adding), else the route's `bearerAuth`.
   */
  readonly securitySchemes: Readonly<Record<string, unknown>>;
}

/** A copy of `value` with each local `$ref` replaced by a copy of what it points at. */
function inline(value: unknown, document: JsonObject): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(item, document));
  if (!isJsonObject(value)) return value;
  const target = value['$ref'];
  if (typeof target === 'string' && target.startsWith('#/')) {
    let found: unknown = document;
    for (const step of target.slice(2).split('/')) {
      found = isJsonObject(found) ? found[step] : undefined;
    }
    if (found === undefined) throw new Error(`${MERGE}: the route's ${target} resolves nowhere`);
    return inline(found, document);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, document)]));
}

/**
 * The route's operation as it stands in `document`, self-contained, for a host that describes its
 * routes one by one instead of as a whole document (Fastify's route schemas, read by
 * `@fastify/swagger`): the same operation {@link addPlantRoute} adds, in the document's OpenAPI
 * version, with its schemas written in place so it needs no component but its security scheme.
 *
 * @param document - the host's OpenAPI 3.0 or 3.1 document (only its version and security schemes are read)
 * @param options - as {@link addPlantRoute}'s, without `basePath` and `componentPrefix`
 * @returns the operation, and the security scheme the document must hold for it
 * @throws TypeError as {@link addPlantRoute} does
 * @example
 * ```ts
 * const { operation, securitySchemes } = plantOperation(hostDocument, { requiredScopes: ['plants:write'] });
 * ```
 */
export function plantOperation(
  document: OpenApiHostDocument,
  options: Omit<AddPlantRouteOptions, 'basePath' | 'componentPrefix'> = {},
): PlantOperation {
  const host = document as unknown as JsonObject;
  const components = isJsonObject(host['components']) ? host['components'] : {};
  const schemes = components['securitySchemes'];
  // Only the host's version and schemes matter: the route lives alone in this document.
  const alone = {
    openapi: `3.${openApiVersion(document) === '3.0' ? 0 : 1}.0`,
    components: isJsonObject(schemes) ? { securitySchemes: schemes } : {},
  };
  const merged = addPlantRoute(alone, options) as unknown as {
    paths: Record<string, { post: unknown }>;
    components: { securitySchemes: Record<string, unknown> };
  };
  const operation = inline(merged.paths['/plants']?.post, merged);
  const security = (operation as { security: Record<string, unknown>[] }).security;
  const name = Object.keys(security[0] ?? {})[0] ?? '';
  return {
    operation: operation as JsonObject,
    securitySchemes: { [name]: merged.components.securitySchemes[name] },
  };
}
