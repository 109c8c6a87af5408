// A section of docs/performance.md written by another script than `pnpm bench` (the diagnostics
// micro-benchmark): `pnpm bench` rewrites the page and carries the section over as it was.

const START = '<!-- diagnostics:start -->';
const END = '<!-- diagnostics:end -->';
/** The heading the section goes before, when the page does not have it yet. */
const BEFORE = '## Machine and versions';

/**
 * The kept section of a page, markers included, or `''`.
 *
 * @param {string} page - the Markdown page
 * @returns {string}
 */
export function keptSection(page) {
  const start = page.indexOf(START);
  const end = page.indexOf(END, start);
  return start < 0 || end < 0 ? '' : page.slice(start, end + END.length);
}

/**
 * The page with its kept section replaced by `body` (placed before "Machine and versions" if the page
 * has none yet).
 *
 * @param {string} page - the Markdown page
 * @param {string} body - the section's Markdown, without markers; `''` leaves the page as it is
 * @returns {string}
 */
export function withKeptSection(page, body) {
  if (body === '') return page;
  const section = body.startsWith(START) ? body : `${START}\n\n${body.trim()}\n\n${END}`;
  const current = keptSection(page);
  if (current !== '') return page.replace(current, section);
  const at = page.indexOf(BEFORE);
  return at < 0
    ? `${page.trimEnd()}\n\n${section}\n`
    : `${page.slice(0, at)}${section}\n\n${page.slice(at)}`;
}
