// Module hooks of the child that runs the READMEs' blocks: the published packages' names resolve to
// their sources (tsx compiles them), as in the tests, so a run needs no build.
/** @type {Record<string, string>} specifier → file URL, given by `register(…, { data })` */
let sources = {};

/** @param {Record<string, string>} data */
export function initialize(data) {
  sources = data;
}

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => unknown} next
 */
export function resolve(specifier, context, next) {
  const url = sources[specifier];
  // Handed on, so that tsx's own hook sees the source file and compiles it.
  return next(url ?? specifier, context);
}
