// A small text PDF written by hand (PDF 1.4, Helvetica in WinAnsiEncoding, so Spanish accents are kept):
// one page per entry, its text wrapped into lines. Enough for the knowledge extraction (pdf.js) to find a
// text layer page by page, without a PDF library in the journeys.

/** Splits a text into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF string literal: backslash, parentheses escaped; characters past Latin-1 are refused. */
function pdfString(text: string): string {
  if (/[^\x20-\xff]/.test(text)) throw new Error(`the PDF fixture writes Latin-1 text only: ${text}`);
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A PDF with one page per entry of `pages` (US Letter, 11 pt, lines of up to 85 characters). */
export function textPdf(pages: string[]): Buffer {
  const objects: string[] = [];
  /** Adds an object; its id is its 1-based position. */
  const add = (body: string) => objects.push(body);
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  const pagesId = add(''); // filled in below, once the pages' ids are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const text of pages) {
    const lines = wrap(text, 85).map(pdfString);
    const stream = `BT /F${font} 11 Tf 14 TL 72 720 Td ${lines.join(' Tj T* ')} Tj ET`;
    const contents = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    pageIds.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F${font} ${font} 0 R >> >> /Contents ${contents} 0 R >>`));
  }
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
