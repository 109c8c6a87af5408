import { readFileSync, writeFileSync } from 'node:fs';
import { escapeRegExp } from './escape-reg-exp';
import type { LinkProblem } from './published-links';

/**
 * Writes fields into a package.json, each where it already is or, when new, after `license` (where the
 * published packages keep them), so the diff shows only the values that changed.
 *
 * @param path - the package.json on disk
 * @param fields - the fields and their values
 */
export function writeFields(path: string, fields: Readonly<Record<string, unknown>>): void {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const missing = Object.keys(fields).filter((field) => !(field in manifest));
  const entries = Object.entries(manifest).flatMap(([key, value]) => {
    const entry: [string, unknown] = [key, key in fields ? fields[key] : value];
    return key === 'license'
      ? [entry, ...missing.map((field) => [field, fields[field]] as const)]
      : [entry];
  });
  const written = Object.fromEntries(entries);
  for (const field of missing) written[field] ??= fields[field];
  writeFileSync(path, `${JSON.stringify(written, null, 2)}\n`);
}

/**
 * Replaces the links that have a sure replacement, on their own line and only where they stand as a
 * link's target, so a longer link that starts the same way is left alone.
 *
 * @param path - the Markdown page on disk
 * @param problems - its problems; those without a replacement are skipped
 * @returns the problems fixed
 */
export function rewriteLinks(path: string, problems: readonly LinkProblem[]): LinkProblem[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const fixed = problems.filter(({ line, target, replacement }) => {
    const text = lines[line - 1];
    if (replacement === undefined || text === undefined) return false;
    const link = new RegExp(`(?<=[(<"'\\s:]|^)${escapeRegExp(target)}(?=[)>"'\\s]|$)`, 'gu');
    lines[line - 1] = text.replace(link, replacement);
    return lines[line - 1] !== text;
  });
  if (fixed.length > 0) writeFileSync(path, lines.join('\n'));
  return fixed;
}
