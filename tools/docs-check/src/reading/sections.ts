/** A heading of a page, and where its section runs. */
export interface Section {
  /** GitHub's anchor for the heading: `a-an-existing-express-5-app-on-postgresql`. */
  readonly anchor: string;
  readonly level: number;
  /** The section's text, its heading first, up to the next heading of its level or above. */
  readonly text: string;
}

const HEADING = /^(#{1,6}) +(.+?) *#*$/u;
const FENCE = /^(?:```|~~~)/u;

/**
 * The anchor GitHub gives a heading: lower case, punctuation dropped (hyphens and underscores
 * kept), each space a hyphen.
 *
 * @param heading - the heading's text, without its `#`s
 * @returns the anchor, without `#`
 * @example
 * ```ts
 * slug('A. An existing Express 5 app, on PostgreSQL'); // 'a-an-existing-express-5-app-on-postgresql'
 * ```
 */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/gu, '-');
}

/**
 * Splits a page at its headings (not at a `#` inside a code block).
 *
 * @param markdown - the page
 * @returns the text before the first `##` heading (the title and its introduction), and each section
 * @example
 * ```ts
 * sections('# T\nintro\n## A\ntext').sections[0]?.anchor; // 'a'
 * ```
 */
export function sections(markdown: string): { intro: string; sections: Section[] } {
  const lines = markdown.split('\n');
  const headings: { line: number; level: number; anchor: string }[] = [];
  let fenced = false;
  const seen = new Map<string, number>();
  lines.forEach((line, index) => {
    if (FENCE.test(line)) fenced = !fenced;
    const match = fenced ? null : HEADING.exec(line);
    if (match === null) return;
    const base = slug((match[2] ?? '').replace(/`/gu, ''));
    // GitHub numbers a repeated heading's anchor: `usage`, `usage-1`.
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    headings.push({
      line: index,
      level: (match[1] ?? '').length,
      anchor: count === 0 ? base : `${base}-${count}`,
    });
  });
  const firstSection = headings.find((heading) => heading.level >= 2)?.line ?? lines.length;
  return {
    intro: lines.slice(0, firstSection).join('\n'),
    sections: headings.map((heading, index) => {
      const end =
        headings.slice(index + 1).find((next) => next.level <= heading.level)?.line ?? lines.length;
      return {
        anchor: heading.anchor,
        level: heading.level,
        text: lines.slice(heading.line, end).join('\n'),
      };
    }),
  };
}
