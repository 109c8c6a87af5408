// Sections of docs/reference/performance.md written by other scripts than `pnpm bench` (the diagnostics and
// DPoP micro-benchmarks): `pnpm bench` rewrites the page and carries each section over as it was.

/** The names of the kept sections, in the order they stand on the page. */
export const KEPT_SECTIONS = ['diagnostics', 'dpop', 'guard', 'tenants', 'events', 'relay'];
/** The heading a section goes before, when the page does not have it yet. */
const BEFORE = '## Machine and versions';

const markers = (name) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];

/**
 * A kept section of a page, markers included, or `''`.
 *
 * @param {string} page - the Markdown page
 * @param {string} [name] - which section
 * @returns {string}
 */
export function keptSection(page, name = 'diagnostics') {
  const [START, END] = markers(name);
  const start = page.indexOf(START);
  const end = page.indexOf(END, start);
  return start < 0 || end < 0 ? '' : page.slice(start, end + END.length);
}

/**
 * The page with a kept section replaced by `body` (placed before "Machine and versions" if the page
 * has none yet).
 *
 * @param {string} page - the Markdown page
 * @param {string} body - the section's Markdown, with or without markers; `''` leaves the page as it is
 * @param {string} [name] - which section
 * @returns {string}
 */
export function withKeptSection(page, body, name = 'diagnostics') {
  if (body === '') return page;
  const [START, END] = markers(name);
  const section = body.startsWith(START) ? body : `${START}\n\n${body.trim()}\n\n${END}`;
  const current = keptSection(page, name);
  if (current !== '') return page.replace(current, section);
  const at = page.indexOf(BEFORE);
  return at < 0
    ? `${page.trimEnd()}\n\n${section}\n`
    : `${page.slice(0, at)}${section}\n\n${page.slice(at)}`;
}

/**
 * Carries every kept section of `old` over to the newly written `page`.
 *
 * @param {string} page - the page `pnpm bench` just wrote
 * @param {string} old - the page as it was, or `''`
 * @returns {string}
 */
export function withKeptSections(page, old) {
  return KEPT_SECTIONS.reduce(
    (result, name) => withKeptSection(result, keptSection(old, name), name),
    page,
  );
}
