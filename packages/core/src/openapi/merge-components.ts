import { sameJson } from '../common/same-json';
import { type JsonObject, isJsonObject, MERGE, objectIn } from './host-document';
import type { RouteComponents } from './route-parts';

function collision(kind: string, name: string, prefix: string): never {
  const fix =
    prefix === ''
      ? `pass componentPrefix (such as 'Plantstore', which names it Plantstore${name})`
      : 'pass another componentPrefix';
  throw new TypeError(
    `${MERGE}: the document already has a different components.${kind}.${name}; ${fix} so that the route's components cannot take the place of the host's`,
  );
}

/** Adds each of the route's components, keeps one the host already has exactly, refuses another. */
function addAll(host: JsonObject, kind: string, ours: JsonObject, prefix: string): void {
  const target = objectIn(host, kind, `components.${kind}`);
  for (const [name, component] of Object.entries(ours)) {
    if (!Object.hasOwn(target, name)) target[name] = component;
    else if (!sameJson(target[name], component)) collision(kind, name, prefix);
  }
}

/** An HTTP Bearer scheme (RFC 7235: the scheme's name is case-insensitive). */
const isBearer = (scheme: unknown): boolean =>
  isJsonObject(scheme) &&
  scheme['type'] === 'http' &&
  typeof scheme['scheme'] === 'string' &&
  scheme['scheme'].toLowerCase() === 'bearer';

/**
 * Merges the route's components into the host's `components` (a copy, changed in place): schemas
 * and headers the host already has exactly are kept once, and the route uses the host's own HTTP
 * Bearer scheme when it has one, so a reference page offers one "Authorize" for every route.
 *
 * @param components - the `components` object of the copied host document
 * @param ours - the route's components, already named with the prefix
 * @param prefix - the component prefix, for the message
 * @returns the name of the security scheme the operation's `security` names
 * @throws TypeError naming the component, when the host has a different one under a route's name
 */
export function mergeComponents(
  components: JsonObject,
  ours: RouteComponents,
  prefix: string,
): string {
  addAll(components, 'schemas', ours.schemas, prefix);
  addAll(components, 'headers', ours.headers, prefix);
  const [name, scheme] = Object.entries(ours.securitySchemes)[0] ?? [];
  if (name === undefined) throw new Error('openapi: the route has no security scheme');
  const schemes = objectIn(components, 'securitySchemes', 'components.securitySchemes');
  if (sameJson(schemes[name], scheme)) return name;
  const bearer = Object.keys(schemes).find((key) => isBearer(schemes[key]));
  if (bearer !== undefined) return bearer;
  addAll(components, 'securitySchemes', { [name]: scheme }, prefix);
  return name;
}
