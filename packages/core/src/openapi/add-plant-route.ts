import { SCOPE_TOKENS } from '../auth/jwt/options/jwt-bearer-options';
import { normaliseBasePath } from '../http/base-path';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  stringList,
} from '../options/check-options';
import {
  isJsonObject,
  type JsonObject,
  MERGE,
  objectIn,
  openApiVersion,
  type OpenApiVersion,
} from './host-document';
import { mergeComponents } from './merge-components';
import { operationTag } from './operation-tag';
import type { AddPlantRouteOptions, OpenApiHostDocument } from './openapi-types';
import { routeParts } from './route-parts';

const KNOWN = new Set([
  'basePath',
  'componentPrefix',
  'operationId',
  'requiredScopes',
  'auth',
  'tag',
]);
// What OpenAPI allows in a component's name (the Components Object's key pattern).
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/u;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface MergeSettings {
  readonly basePath: string;
  readonly prefix: string;
  readonly operationId: string;
  readonly tag: string;
  readonly scopes: readonly string[];
}

function settingsOf(options: AddPlantRouteOptions): MergeSettings {
  checkKnownOptions(MERGE, options, KNOWN);
  const { componentPrefix: prefix = '', operationId = 'createPlant', auth } = options;
  if (typeof prefix !== 'string' || (prefix !== '' && !COMPONENT_NAME.test(prefix))) {
    optionError(
      MERGE,
      'componentPrefix',
      'must be letters, digits, ".", "-" or "_"',
      describeValue(prefix),
    );
  }
  if (typeof operationId !== 'string' || operationId === '') {
    optionError(MERGE, 'operationId', 'must be a non-empty string', describeValue(operationId));
  }
  const required = stringList(MERGE, 'requiredScopes', options.requiredScopes, SCOPE_TOKENS);
  if (auth !== undefined && required !== undefined) {
    optionError(
      MERGE,
      'auth',
      'must not be given with requiredScopes (it names the scopes)',
      'both',
    );
  }
  if (auth !== undefined && (typeof auth !== 'object' || auth === null)) {
    optionError(
      MERGE,
      'auth',
      "must be the route's authenticator, such as jwtBearer({...})",
      describeValue(auth),
    );
  }
  return {
    basePath: normaliseBasePath(MERGE, options.basePath),
    prefix,
    operationId,
    tag: operationTag(MERGE, options.tag),
    scopes: required ?? auth?.accepts?.scopes ?? [],
  };
}

/** Refuses an `operationId` the host already uses: it must be unique in a document. */
function checkOperationId(paths: JsonObject, operationId: string): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = isJsonObject(item) ? item[method] : undefined;
      if (isJsonObject(operation) && operation['operationId'] === operationId) {
        throw new TypeError(
          `${MERGE}: the document already has an operation with operationId "${operationId}" (${method.toUpperCase()} ${path}); pass the option operationId to name the route's operation otherwise`,
        );
      }
    }
  }
}

/** The operation's own `security`: 3.0 allows scopes only for OAuth 2 and OpenID Connect schemes. */
function securedOperation(
  operation: JsonObject,
  scheme: string,
  settings: MergeSettings,
  version: OpenApiVersion,
): JsonObject {
  const { scopes } = settings;
  const named = scopes.map((scope) => `\`${scope}\``).join(', ');
  const description =
    scopes.length === 0
      ? operation['description']
      : `${String(operation['description'])}\n\nThe token must grant the scope${scopes.length === 1 ? '' : 's'} ${named}.`;
  return {
    ...operation,
    operationId: settings.operationId,
    description,
    security: [{ [scheme]: version === '3.1' ? [...scopes] : [] }],
  };
}

/**
 * Adds the route to a host application's own OpenAPI 3.0 or 3.1 document, for hosts that build
 * or generate one (Express, Koa, NestJS's `SwaggerModule.createDocument`): its path item at
 * `{basePath}/plants`, the schemas, headers and security scheme it refers to, and its own
 * `security` naming the route's scopes (in 3.0, where an HTTP scheme takes no scopes, they are
 * written in the description). A 3.0 document gets schemas in 3.0's dialect. The host's document
 * is copied, never changed, and the copy differs only by what the route adds.
 *
 * Names cannot silently collide: a host component of one of the route's names is kept when it is
 * exactly the route's, and refused otherwise (pass `componentPrefix`); the route uses the host's
 * own HTTP Bearer scheme when it has one.
 *
 * @param document - the host's OpenAPI 3.0.x or 3.1.x document
 * @param options - the mount path, component prefix, operationId, tag (`plants` by default) and scopes
 * @returns a new document, of the host's version, with the route
 * @throws TypeError for a document that is not OpenAPI 3.0 or 3.1, an option that is wrong, a host
 *   that already has `POST {basePath}/plants` or the route's operationId, or a host component of
 *   one of the route's names that is not the route's
 * @example
 * ```ts
 * const merged = addPlantRoute(hostDocument, { basePath: '/api', tag: 'garden', requiredScopes: ['plants:write'] });
 * app.get('/openapi.json', (_req, res) => res.json(merged));
 * ```
 */
export function addPlantRoute<T extends OpenApiHostDocument>(
  document: T,
  options: AddPlantRouteOptions = {},
): T {
  const version = openApiVersion(document);
  const settings = settingsOf(options);
  const host = structuredClone(document) as unknown as JsonObject;
  const route = routeParts(settings, version);
  const paths = objectIn(host, 'paths', 'paths');
  const item = paths[route.path] ?? {};
  if (!isJsonObject(item) || item['post'] !== undefined || item['$ref'] !== undefined) {
    throw new TypeError(
      `${MERGE}: the document already has POST ${route.path} (or a path item there it cannot extend); mount the route at another basePath`,
    );
  }
  checkOperationId(paths, settings.operationId);
  const scheme = mergeComponents(
    objectIn(host, 'components', 'components'),
    route.components,
    settings.prefix,
  );
  paths[route.path] = {
    ...item,
    post: securedOperation(route.operation, scheme, settings, version),
  };
  return host as unknown as T;
}
