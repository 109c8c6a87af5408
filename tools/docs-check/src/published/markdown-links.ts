/** A link target of a Markdown page, with the line it is on. */
export interface MarkdownLink {
  /** 1-based. */
  readonly line: number;
  /** As written: `../../docs/koa.md#mounting`, `https://…`. */
  readonly target: string;
}

// `[text](target "title")` and `![alt](target)`: the target, bare or in `<…>`.
const INLINE = /\]\(\s*(?:<([^>]*)>|([^\s)]+))/gu;
// `[label]: target`, a reference definition, on a line of its own.
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(?:<([^>]*)>|(\S+))/u;
// `<a href="…">` and `<img src="…">`: npm renders a README's HTML too.
const HTML = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gu;
// `<https://…>`, and a bare URL, which GitHub and npm both turn into a link.
const BARE = /<?(https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?*_])>?/gu;
const FENCE = /^ {0,3}(`{3,}|~{3,})/u;
const CODE_SPAN = /(`+)[^`]*?\1/gu;

/**
 * Lists the link targets of a Markdown page: inline links and images, reference definitions, HTML
 * `href`/`src` and bare URLs. Code blocks and code spans are skipped: a path shown as code is an
 * example, not a link. A link's target is on the line of its `](`, which is the line reported.
 *
 * @param markdown - the page
 * @returns its links, in order, each once per line it is on
 * @example
 * markdownLinks('See [Koa](../../docs/koa.md).'); // [{ line: 1, target: '../../docs/koa.md' }]
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const opening = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) {
        fence = undefined;
      }
      return;
    }
    if (opening !== undefined) {
      fence = opening;
      return;
    }
    const line = index + 1;
    const prose = text.replace(CODE_SPAN, '');
    const targets = new Set<string>();
    const definition = DEFINITION.exec(prose);
    if (definition !== null) targets.add(definition[1] ?? definition[2] ?? '');
    for (const match of prose.matchAll(INLINE)) targets.add(match[1] ?? match[2] ?? '');
    for (const match of prose.matchAll(HTML)) targets.add(match[1] ?? match[2] ?? '');
    // A URL already taken as a link's target is the same link, not a second one.
    for (const match of prose.matchAll(BARE)) {
      const url = match[1] ?? '';
      if (![...targets].some((target) => target.startsWith(url))) targets.add(url);
    }
    for (const target of targets) if (target !== '') links.push({ line, target });
  });
  return links;
}
