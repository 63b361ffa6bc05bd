// The PDF export's tables (issue 30 item 5): a markdown table prints as a grid — each cell its own text at its
// column's left edge, inside ruled cells, the header bold — not as a line of pipes; hostile tables (raw HTML in
// cells, more columns than the page holds, a cell longer than a page, many rows) print without failing.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderPdf } from './pdf';

interface Draw {
  page: number;
  x: number;
  font: string;
  text: string;
}

/** The text draws of a pdfkit PDF (one per BT…ET, with its x and font) and the rectangles stroked per page. */
function pdfDraws(pdf: Buffer): { draws: Draw[]; rects: number; pages: number } {
  const raw = pdf.toString('latin1');
  const draws: Draw[] = [];
  let rects = 0;
  let page = 0;
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes('BT') && !content.includes(' re')) continue;
    page++;
    rects += [...content.matchAll(/ re\n(?:[^\n]*\n)?S\n/g)].length;
    for (const block of content.matchAll(/BT\n1 0 0 1 ([\d.]+) [\d.]+ Tm\n\/(F\d+) [\d.]+ Tf\n\[(.*?)\] TJ\nET/g)) {
      const text = [...block[3].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1], 'hex').toString('latin1')).join('');
      draws.push({ page, x: Number(block[1]), font: block[2], text });
    }
  }
  return { draws, rects, pages: (raw.match(/\/Type \/Page\b/g) ?? []).length };
}

const drawOf = (draws: Draw[], text: string) => {
  const found = draws.find((d) => d.text === text);
  if (!found) throw new Error(`"${text}" is not drawn alone; drawn: ${JSON.stringify(draws.map((d) => d.text))}`);
  return found;
};

describe('PDF export tables', () => {
  it('prints a table as a grid: a cell per column, aligned under its header, ruled, the header bold', async () => {
    const { draws, rects } = pdfDraws(await renderPdf('Intro\n\n| Plant | Light | Price |\n| --- | :-: | --: |\n| Fern | **shade** | 4 |\n| Rose | sun | 12 |\n\nAfter'));
    expect(draws.some((d) => d.text.includes('|'))).toBe(false);
    const [plant, light, price] = ['Plant', 'Light', 'Price'].map((text) => drawOf(draws, text));
    expect(plant.x).toBeLessThan(light.x);
    expect(light.x).toBeLessThan(price.x);
    for (const [cell, header] of [
      ['Fern', plant],
      ['Rose', plant],
      ['shade', light],
      ['sun', light],
      ['4', price],
      ['12', price],
    ] as const)
      expect(drawOf(draws, cell).x, cell).toBe(header.x);
    // The header's font (bold) is not the body's.
    expect(plant.font).not.toBe(drawOf(draws, 'Rose').font);
    expect(drawOf(draws, 'shade').font).toBe(plant.font);
    // Every cell is ruled: 3 columns × 3 rows.
    expect(rects).toBeGreaterThanOrEqual(9);
    expect(drawOf(draws, 'After').x).toBe(plant.x - 4);
  });

  it('keeps hostile cells as literal text and prints tables that cannot be a grid as text, without failing', async () => {
    const wide = `|${' c |'.repeat(40)}\n|${'---|'.repeat(40)}\n|${' v |'.repeat(40)}`;
    const huge = `| a | b |\n| --- | --- |\n| ${'word '.repeat(2_000)} | x |`;
    const long = `| n | square |\n| --- | --- |\n${Array.from({ length: 150 }, (_, i) => `| ${i} | ${i * i} |`).join('\n')}`;
    const hostile = '| <script>alert(1)</script> | [x](javascript:alert(1)) |\n| --- | --- |\n| \\| pipe | 🙂 emoji |';
    const pdf = await renderPdf([hostile, wide, huge, long].join('\n\n'));
    const { draws, pages } = pdfDraws(pdf);
    const all = draws.map((d) => d.text).join('\n');
    expect(drawOf(draws, '<script>alert(1)</script>')).toBeTruthy();
    expect(all).toContain('x (javascript:alert(1))');
    expect(all).toContain('| pipe');
    expect(all).toContain('? emoji');
    // 40 columns do not fit: one line of text per row.
    expect(all).toContain('c   |   c   |   c');
    // The long table runs onto further pages, each row whole.
    expect(pages).toBeGreaterThan(3);
    expect(drawOf(draws, '149').x).toBe(drawOf(draws, 'n').x);
  });
});
