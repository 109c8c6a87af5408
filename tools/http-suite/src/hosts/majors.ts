import { createRequire } from 'node:module';

// Both majors of each framework are installed under npm aliases (express4, koa3, fastify5, …), which
// carry no types of their own; the hosts use only API the two share, typed by the one package of
// that framework the kit builds against.
const load = createRequire(import.meta.url);

/**
 * Loads the installed majors of one framework, by name.
 *
 * @param aliases - each major's name and the npm alias it is installed under
 * @returns each major's default export, typed as `Factory`
 * @example
 * const KOA_MAJORS = loadMajors<typeof Koa>()({ 'Koa 2': 'koa2', 'Koa 3': 'koa3' } as const);
 */
export function loadMajors<Factory>() {
  return <Name extends string>(aliases: Readonly<Record<Name, string>>): Record<Name, Factory> =>
    Object.fromEntries(
      Object.entries<string>(aliases).map(([name, alias]) => [name, load(alias) as Factory]),
    ) as Record<Name, Factory>;
}
