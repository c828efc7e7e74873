/** Text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** JSON that is safe inside a <script> element (no `</script>`, no U+2028/2029 surprises). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A table row of `tag` cells holding the given HTML (already escaped where it must be). */
export function tableRow(cells: readonly (string | number)[], tag: 'td' | 'th' = 'td'): string {
  return `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
}

/** Fixed-point number, or an em dash when not finite. */
export function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '—';
}

/** Ten distinguishable colours (Tableau 10), then evenly spaced hues. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

export function color(i: number): string {
  return i < PALETTE.length ? PALETTE[i] : `hsl(${Math.round((i * 137.508) % 360)} 55% 50%)`;
}

/** About `count` round tick values covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step - 1e-9) * step; t <= max + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** A number as a tick label: no trailing zeros. */
export function tickLabel(t: number): string {
  return String(Number(t.toPrecision(6)));
}
