// POST /api/messages/pdf: a message's markdown as a PDF (pdfkit, built-in fonts, A4). Tables print as a grid
// (issue 30 item 5), as the Word export does (docx.ts): a bold header row, a column per cell, ruled cells.
import PDFDocument from 'pdfkit';
import { inlineText, markdownBlocks, type Inline } from './markdown-blocks';

const MARGIN = 56;
const BODY_SIZE = 11;
/** Deeper list levels print at this indentation (the page keeps room for text). */
const MAX_DEPTH = 4;
const HEADING_SIZES = { 1: 20, 2: 17, 3: 14.5, 4: 13, 5: 12, 6: 11 } as const;
// The built-in PDF fonts cover Windows-1252; other characters (emoji, CJK) would print as garbage.
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 9) out += '    ';
    else if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255) || code === 10 || WIN_ANSI_EXTRAS.has(ch)) out += ch;
    else if (code > 255) out += '?';
  }
  return out;
}

function fontOf(inline: Inline, base: 'regular' | 'bold'): string {
  if (inline.code) return 'Courier';
  const bold = inline.bold || base === 'bold';
  if (bold && inline.italic) return 'Helvetica-BoldOblique';
  if (bold) return 'Helvetica-Bold';
  if (inline.italic) return 'Helvetica-Oblique';
  return 'Helvetica';
}

/** Writes runs of differing fonts as one wrapped paragraph starting at (x, y). */
function writeInlines(doc: PDFKit.PDFDocument, inlines: Inline[], at: { x: number; y: number; width: number; size: number; base?: 'regular' | 'bold'; lineGap?: number }) {
  const runs = inlines.length ? inlines : [{ text: '' }];
  doc.fontSize(at.size);
  runs.forEach((inline, index) => {
    const options = { width: at.width, continued: index < runs.length - 1, lineGap: at.lineGap ?? 2, strike: Boolean(inline.strike) };
    doc.font(fontOf(inline, at.base ?? 'regular'));
    if (index === 0) doc.text(pdfSafe(inline.text), at.x, at.y, options);
    else doc.text(pdfSafe(inline.text), options);
  });
}

const TABLE_SIZE = BODY_SIZE - 1;
const CELL_PAD = 4;
/** A column narrower than this cannot hold a word: a table that would need them prints as lines of text. */
const MIN_COLUMN = 36;

/** Column widths filling `width`: each column's widest text, the wide ones shrunk to share what is left. */
function columnWidths(doc: PDFKit.PDFDocument, rows: Inline[][][], columns: number, width: number): number[] {
  const natural = Array.from({ length: columns }, (_, c) => {
    let widest = 0;
    rows.forEach((row, index) => {
      doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
      // Measured up to a line's worth: a longer cell wraps anyway.
      widest = Math.max(widest, doc.widthOfString(pdfSafe(inlineText(row[c] ?? [])).slice(0, 200)));
    });
    return Math.max(MIN_COLUMN, widest + CELL_PAD * 2);
  });
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= width) return natural.map((w) => (w * width) / total);
  // Narrow columns keep their width; the others share the rest in proportion to their text.
  const fair = width / columns;
  const narrow = natural.filter((w) => w <= fair);
  const wide = natural.filter((w) => w > fair);
  const left = width - narrow.reduce((a, b) => a + b, 0);
  const wideTotal = wide.reduce((a, b) => a + b, 0);
  return natural.map((w) => (w <= fair ? w : Math.max(MIN_COLUMN, (w * left) / wideTotal)));
}

const cellOptions = (width: number) => ({ width: width - CELL_PAD * 2, lineGap: 1 });

/** A table as a grid of ruled cells; a row that would cross the page's end starts a new page. */
function writeTable(doc: PDFKit.PDFDocument, rows: Inline[][][], left: number, width: number) {
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const bottom = () => doc.page.height - MARGIN;
  const usable = doc.page.height - MARGIN * 2;
  const fallback = (row: Inline[][], index: number) => {
    doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    doc.text(pdfSafe(row.map((cell) => inlineText(cell)).join('   |   ')), left, doc.y, { width });
  };
  // More columns than the page can hold: the old lines of text (nothing is lost).
  if (columns * MIN_COLUMN > width) {
    rows.forEach(fallback);
    return;
  }
  const widths = columnWidths(doc, rows, columns, width);
  doc.strokeColor('#999999').lineWidth(0.5);
  rows.forEach((row, index) => {
    const base = index === 0 ? 'bold' : 'regular';
    doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    const height = CELL_PAD * 2 + Math.max(...widths.map((w, c) => doc.heightOfString(pdfSafe(inlineText(row[c] ?? [])) || ' ', cellOptions(w))));
    // A row taller than a page cannot be a grid row: its cells print as a line of text.
    if (height > usable) {
      fallback(row, index);
      return;
    }
    if (doc.y + height > bottom()) doc.addPage();
    const top = doc.y;
    let x = left;
    widths.forEach((w, c) => {
      if (index === 0) doc.rect(x, top, w, height).fillColor('#eeeeee').fill();
      doc.rect(x, top, w, height).stroke();
      doc.fillColor('#000000');
      const cell = row[c] ?? [];
      if (cell.length) writeInlines(doc, cell, { x: x + CELL_PAD, y: top + CELL_PAD, width: w - CELL_PAD * 2, size: TABLE_SIZE, base, lineGap: 1 });
      x += w;
    });
    doc.x = left;
    doc.y = top + height;
  });
  doc.fillColor('#000000');
}

export function renderPdf(markdown: string, title = 'Message'): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: pdfSafe(title), Producer: 'Pluma' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;
  const gap = () => doc.moveDown(0.5);

  for (const block of markdownBlocks(markdown)) {
    switch (block.kind) {
      case 'heading':
        doc.moveDown(0.3);
        writeInlines(doc, block.inlines, { x: left, y: doc.y, width, size: HEADING_SIZES[block.level], base: 'bold' });
        gap();
        break;
      case 'paragraph': {
        const indent = block.depth === undefined ? 0 : 20 + Math.min(block.depth, MAX_DEPTH) * 18;
        writeInlines(doc, block.inlines, { x: left + indent, y: doc.y, width: width - indent, size: BODY_SIZE });
        gap();
        break;
      }
      case 'quote':
        writeInlines(doc, block.inlines.map((i) => ({ ...i, italic: true })), { x: left + 18, y: doc.y, width: width - 18, size: BODY_SIZE });
        gap();
        break;
      case 'bullet':
      case 'ordered': {
        const indent = left + 14 + Math.min(block.depth, MAX_DEPTH) * 18;
        const marker = block.checked !== undefined ? (block.checked ? '[x]' : '[  ]') : block.kind === 'bullet' ? '•' : `${block.number}.`;
        if (doc.y > doc.page.height - MARGIN - BODY_SIZE * 2) doc.addPage();
        const y = doc.y;
        const markerWidth = block.checked !== undefined ? 22 : 16;
        doc.font('Helvetica').fontSize(BODY_SIZE).text(marker, indent - 14, y, { width: markerWidth, lineBreak: false });
        const textX = indent - 14 + markerWidth + 4;
        writeInlines(doc, block.inlines, { x: textX, y, width: width - (textX - left), size: BODY_SIZE });
        doc.moveDown(0.2);
        break;
      }
      case 'code':
        doc.font('Courier').fontSize(9.5).text(pdfSafe(block.text), left + 10, doc.y, { width: width - 10, lineGap: 1 });
        gap();
        break;
      case 'table':
        writeTable(doc, block.rows, left, width);
        gap();
        break;
      case 'rule': {
        const y = doc.y + 4;
        doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#999999').stroke();
        doc.y = y + 8;
        break;
      }
    }
  }
  doc.end();
  return done;
}
