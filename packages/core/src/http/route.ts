/** Route matching rules of a service. */
export interface RouteRules {
  readonly routePath: string;
  readonly strictRouting: boolean;
  readonly caseSensitiveRouting: boolean;
}

/**
 * Builds the path test of the route once, so matching costs a comparison or two per request.
 *
 * @param rules - the route's path and the host's routing settings
 * @returns whether a request path is the route's
 */
export function routeMatcher(rules: RouteRules): (path: string) => boolean {
  const expected = rules.caseSensitiveRouting ? rules.routePath : rules.routePath.toLowerCase();
  const withSlash = `${expected}/`;
  const fold = rules.caseSensitiveRouting
    ? (path: string) => path
    : (path: string) => path.toLowerCase();
  if (rules.strictRouting) return (path) => fold(path) === expected;
  return (path) => {
    const folded = fold(path);
    return folded === expected || folded === withSlash;
  };
}
