// A hand-made SVG bar chart: median req/s and median server CPU µs per request for each setup, a
// thin line across each bar's end spanning the rounds' lowest to highest value.
import { format } from './stats.mjs';

const COLOURS = { echo: '#9aa5b1', baseline: '#4c78c8', ours: '#2e9d5b' };
const ROW = 22;
const LABEL_WIDTH = 330;
const PANEL_WIDTH = 300;
const GAP = 70;
const TOP = 64;

const escape = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

function panel({ rows, x, title, value, range, decimals }) {
  const max = Math.max(...rows.map((r) => range(r)[1]), ...rows.map(value)) * 1.08 || 1;
  const scale = (v) => (v / max) * PANEL_WIDTH;
  const parts = [`<text x="${x}" y="${TOP - 14}" class="title">${escape(title)}</text>`];
  for (const row of rows) {
    const y = TOP + row.slot * ROW;
    const v = value(row);
    const [low, high] = range(row);
    parts.push(
      `<rect x="${x}" y="${y + 3}" width="${scale(v).toFixed(1)}" height="${ROW - 6}" fill="${COLOURS[row.kind]}"/>`,
      `<line x1="${(x + scale(low)).toFixed(1)}" x2="${(x + scale(high)).toFixed(1)}" y1="${y + ROW / 2}" y2="${y + ROW / 2}" class="range"/>`,
      `<text x="${(x + Math.max(scale(v), scale(high)) + 6).toFixed(1)}" y="${y + ROW / 2 + 4}" class="value">${format(v, decimals)}</text>`,
    );
  }
  parts.push(`<line x1="${x}" x2="${x}" y1="${TOP}" y2="${TOP + rowsHeight(rows)}" class="axis"/>`);
  return parts.join('\n');
}

function rowsHeight(rows) {
  return (Math.max(...rows.map((r) => r.slot)) + 1) * ROW;
}

/**
 * @param {{ label: string, kind: 'echo'|'baseline'|'ours', group: string, perSecond: number, perSecondRange: number[], cpu: number, cpuRange: number[] }[]} results
 * @param {{ subtitle: string }} meta
 * @returns {string} the SVG document
 */
export function renderChart(results, { subtitle }) {
  const rows = [];
  let slot = 0;
  let group;
  for (const result of results) {
    if (group !== undefined && result.group !== group) slot += 0.6;
    group = result.group;
    rows.push({ ...result, slot });
    slot += 1;
  }
  const width = LABEL_WIDTH + 2 * PANEL_WIDTH + GAP + 90;
  const height = Math.ceil(TOP + rowsHeight(rows) + 48);
  const labels = rows.map(
    (row) =>
      `<text x="${LABEL_WIDTH - 10}" y="${TOP + row.slot * ROW + ROW / 2 + 4}" class="label">${escape(row.label)}</text>`,
  );
  const legendY = height - 18;
  const legend = Object.entries({
    echo: 'echo (no auth, no validation)',
    baseline: 'baseline, hand-written or Fastify',
    ours: 'Plantstore',
  }).map(
    ([kind, text], i) =>
      `<rect x="${LABEL_WIDTH + i * 250}" y="${legendY - 10}" width="12" height="12" fill="${COLOURS[kind]}"/>` +
      `<text x="${LABEL_WIDTH + i * 250 + 18}" y="${legendY}" class="legend">${escape(text)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">
<style>
  .title { font-size: 14px; font-weight: 600; fill: #1f2328; }
  .subtitle { font-size: 12px; fill: #57606a; }
  .label { font-size: 12px; fill: #1f2328; text-anchor: end; }
  .value { font-size: 11px; fill: #1f2328; }
  .legend { font-size: 12px; fill: #1f2328; }
  .axis { stroke: #8c959f; stroke-width: 1; }
  .range { stroke: #1f2328; stroke-width: 1.2; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="16" y="22" class="title">POST /plants: median of interleaved rounds</text>
<text x="16" y="40" class="subtitle">${escape(subtitle)}</text>
${labels.join('\n')}
${panel({ rows, x: LABEL_WIDTH, title: 'requests per second (higher is better)', value: (r) => r.perSecond, range: (r) => r.perSecondRange, decimals: 0 })}
${panel({ rows, x: LABEL_WIDTH + PANEL_WIDTH + GAP, title: 'server CPU µs per request (lower is better)', value: (r) => r.cpu, range: (r) => r.cpuRange, decimals: 0 })}
${legend.join('\n')}
</svg>
`;
}
