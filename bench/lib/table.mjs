// Prints benchmark rows as one aligned table. A row:
// { benchmark, measure, value, baseline?, ratio?, goal?, note? } — all strings once formatted.

const COLUMNS = [
  ['benchmark', 'Benchmark'],
  ['measure', 'Measure'],
  ['value', 'Value'],
  ['baseline', 'Baseline'],
  ['ratio', 'Ratio'],
  ['goal', 'Goal'],
];

export function printTable(rows) {
  const cells = rows.map((row) => COLUMNS.map(([key]) => String(row[key] ?? '—')));
  const widths = COLUMNS.map(([, title], i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (values) => values.map((v, i) => v.padEnd(widths[i])).join(' | ');
  console.log(line(COLUMNS.map(([, title]) => title)));
  console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
  for (const values of cells) console.log(line(values));
  const notes = rows.filter((row) => row.note);
  if (notes.length) {
    console.log('\nNotes:');
    for (const row of notes) console.log(`- ${row.benchmark} / ${row.measure}: ${row.note}`);
  }
}

export const formatRate = (perSecond) => `${Math.round(perSecond).toLocaleString('en-US')} req/s`;
export const formatMs = (ms) => `${Math.round(ms).toLocaleString('en-US')} ms`;
export const formatPercent = (fraction) => `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)}%`;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
