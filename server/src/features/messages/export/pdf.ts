// POST /api/messages/pdf: a message's markdown as a PDF (pdfkit, built-in fonts, A4).
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
function writeInlines(doc: PDFKit.PDFDocument, inlines: Inline[], at: { x: number; y: number; width: number; size: number; base?: 'regular' | 'bold' }) {
  const runs = inlines.length ? inlines : [{ text: '' }];
  doc.fontSize(at.size);
  runs.forEach((inline, index) => {
    const options = { width: at.width, continued: index < runs.length - 1, lineGap: 2, strike: Boolean(inline.strike) };
    doc.font(fontOf(inline, at.base ?? 'regular'));
    if (index === 0) doc.text(pdfSafe(inline.text), at.x, at.y, options);
    else doc.text(pdfSafe(inline.text), options);
  });
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
        block.rows.forEach((row, index) => {
          doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(BODY_SIZE - 1);
          doc.text(pdfSafe(row.map((cell) => inlineText(cell)).join('   |   ')), left, doc.y, { width });
        });
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
