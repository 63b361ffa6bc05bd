// Document and image blocks through the official SDK: accepted as the real API accepts them, and refused
// past 100 PDF pages with the API's own message.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { countPdfPages } from './anthropic-documents';
import { useAnthropicEmulator } from './anthropic-test-client';

/** A minimal PDF with `pages` page objects. */
function pdf(pages: number): string {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj`).join('\n');
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${kids}\n%%EOF`).toString('base64');
}
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

const live = useAnthropicEmulator();

const ask = (content: Anthropic.ContentBlockParam[]) => live.client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content }] });
const question: Anthropic.ContentBlockParam = { type: 'text', text: 'What do these say?' };
const document = (pages: number): Anthropic.ContentBlockParam => ({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf(pages) } });

describe('Anthropic emulator: document and image blocks', () => {
  it('counts a PDF page objects (or its page tree count)', () => {
    expect(countPdfPages(Buffer.from(pdf(7), 'base64'))).toBe(7);
    expect(countPdfPages(Buffer.from('%PDF-1.5\n<< /Type /Pages /Kids [] /Count 42 >>'))).toBe(42);
  });

  it('accepts PDFs and images within 100 pages in total', async () => {
    const answer = await ask([document(60), document(40), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, question]);
    expect(answer.stop_reason).toBe('end_turn');
  });

  it('refuses more than 100 PDF pages in one request with the real API message', async () => {
    const error = await ask([document(60), document(41), question]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('messages.0.content.1.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.');
  });

  it('refuses other media types and block types', async () => {
    const gif = await ask([{ type: 'image', source: { type: 'base64', media_type: 'image/bmp' as 'image/png', data: PNG } }, question]).catch((e: unknown) => e);
    expect(gif).toBeInstanceOf(Anthropic.BadRequestError);
    const notPdf = await ask([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('hello').toString('base64') } }, question]).catch((e: unknown) => e);
    expect((notPdf as Error).message).toContain('The PDF specified was not valid.');
  });
});
