// Markdown tables and ratios as docs/reference/performance.md writes them.

/** A ratio as `1.23×`, or `–` when it is not a number. */
export const ratioText = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');

/** A Markdown table, padded the way Prettier pads it, so the file passes `prettier --check` as written. */
export function table(header, rows, align) {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((row) => row[i].length)));
  const cells = (row) =>
    row.map((cell, i) => (align[i] === 'r' ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
  const rule = widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w)));
  const lines = [header, ...rows].map((row) => `| ${cells(row).join(' | ')} |`);
  lines.splice(1, 0, `| ${rule.join(' | ')} |`);
  return lines.join('\n');
}
