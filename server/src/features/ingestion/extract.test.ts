// Extraction from real documents, chunk sizes and overlap, language detection (no database).
import { describe, expect, it } from 'vitest';
import { chunkBlocks, CHUNK_MAX, detectLanguage, joinBlocks, textFromChunks } from './chunk';
import { cleanText, extractFileText as extractWithin, type KnowledgeFileType } from './extract';
import { contentLimits, FileReadFailure } from './failure';
import { docxWithSections, pdfWithPages, pptxWithSlides, prose, scannedPdf } from '../knowledge/test-fixtures';

const extractFileText = (bytes: Uint8Array, type: KnowledgeFileType) => extractWithin(bytes, type, contentLimits());

describe('extractFileText', () => {
  it('cleans text: control characters go, lone surrogate halves become U+FFFD, pairs stay', () => {
    // A docx can carry `&#xD800;`; the index takes its chunks as JSON, which a lone half would break.
    expect(cleanText('a\u0000b\uD800c\uDC00d \u{1F600}\r\ne')).toBe('ab\uFFFDc\uFFFDd \u{1F600}\ne');
  });

  it('reads a PDF page by page', async () => {
    const { blocks, pages } = await extractFileText(await pdfWithPages(['The first page speaks of rivers.', 'La segunda página habla de la educación pública.']), 'pdf');
    expect(pages).toBe(2);
    expect(blocks.map((b) => b.page)).toEqual([1, 2]);
    expect(blocks[0].text).toContain('rivers');
    expect(blocks[1].text).toContain('educación pública');
  });

  it('finds no text in a scanned PDF', async () => {
    const { blocks, pages } = await extractFileText(await scannedPdf(), 'pdf');
    expect(pages).toBe(1);
    expect(blocks).toEqual([]);
  });

  it('reads a Word document with its headings', async () => {
    const bytes = await docxWithSections([
      { heading: 'Harvest', paragraphs: ['Apples are picked in autumn.', 'Pears follow.'] },
      { heading: 'Storage', paragraphs: ['Cold rooms keep them for months.'] },
    ]);
    const { blocks } = await extractFileText(bytes, 'docx');
    expect(blocks.map((b) => [b.heading, b.text])).toEqual([
      ['Harvest', 'Harvest'],
      ['Harvest', 'Apples are picked in autumn.'],
      ['Harvest', 'Pears follow.'],
      ['Storage', 'Storage'],
      ['Storage', 'Cold rooms keep them for months.'],
    ]);
  });

  it('reads a presentation slide by slide, titles as headings', async () => {
    const bytes = await pptxWithSlides([
      { title: 'Quarterly results', body: 'Revenue grew by a fifth & costs fell.' },
      { title: 'Next steps', body: 'Hire two engineers.' },
    ]);
    const { blocks, pages } = await extractFileText(bytes, 'pptx');
    expect(pages).toBe(2);
    expect(blocks.map((b) => [b.page, b.heading])).toEqual([
      [1, 'Quarterly results'],
      [2, 'Next steps'],
    ]);
    expect(blocks[0].text).toContain('Revenue grew by a fifth & costs fell.');
  });

  it('reads text files in UTF-8 or Windows-1252, with markdown headings', async () => {
    const utf8 = await extractFileText(Buffer.from('\uFEFF# Menú\n\nCafé con leche.\n\nTostadas.'), 'txt');
    expect(utf8.blocks.map((b) => [b.heading, b.text])).toEqual([
      ['Menú', '# Menú'],
      ['Menú', 'Café con leche.'],
      ['Menú', 'Tostadas.'],
    ]);
    const latin = await extractFileText(Buffer.from([0x43, 0x61, 0x66, 0xe9]), 'txt');
    expect(latin.blocks[0].text).toBe('Café');
  });

  it('refuses what is not really its type', async () => {
    for (const [bytes, type] of [[Buffer.from('not a pdf at all'), 'pdf'], [Buffer.from('not a zip'), 'docx'], [Buffer.from('not a zip'), 'pptx']] as const) {
      const err = await extractFileText(bytes, type).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileReadFailure);
      expect(err).toMatchObject({ reason: 'damaged' });
    }
  });
});

describe('chunkBlocks', () => {
  it('cuts passages of 1,000–1,500 characters that overlap within a page, never across, and rebuilds the text', () => {
    const blocks = [
      { page: 1, heading: 'Rivers', text: prose('rivers', 40) },
      { page: 2, heading: 'Mountains', text: prose('mountains', 40) },
    ];
    const chunks = chunkBlocks(blocks);
    expect(chunks.length).toBeGreaterThan(3);
    chunks.forEach((c, i) => {
      expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX);
      const next = chunks[i + 1];
      if (next?.page !== c.page) return;
      // Not the last of its page: full size, and the next one repeats its end.
      expect(c.text.length).toBeGreaterThanOrEqual(900);
      expect(next.startOffset).toBeLessThan(c.startOffset + c.text.length);
      expect(c.text).toContain(next.text.slice(0, 50));
    });
    expect(new Set(chunks.map((c) => c.page))).toEqual(new Set([1, 2]));
    expect(chunks.every((c) => c.text.includes(c.page === 1 ? 'rivers' : 'mountains') && !c.text.includes(c.page === 1 ? 'mountains' : 'rivers'))).toBe(true);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    expect(chunks[0]).toMatchObject({ page: 1, heading: 'Rivers' });
    expect(chunks.at(-1)).toMatchObject({ page: 2, heading: 'Mountains' });
    expect(textFromChunks(chunks)).toBe(joinBlocks(blocks));
  });

  it('splits a text without spaces and still ends', () => {
    const chunks = chunkBlocks([{ page: null, heading: null, text: 'x'.repeat(4000) }]);
    expect(chunks.every((c) => c.text.length <= CHUNK_MAX)).toBe(true);
    expect(textFromChunks(chunks)).toBe('x'.repeat(4000));
  });
});

describe('detectLanguage', () => {
  it('tells Spanish from English, else keeps the fallback', () => {
    expect(detectLanguage('La educación es un derecho de todos los niños y de las niñas.')).toBe('spanish');
    expect(detectLanguage('Education is a right of all the children in the world.', 'spanish')).toBe('english');
    expect(detectLanguage('12345', 'spanish')).toBe('spanish');
  });
});
