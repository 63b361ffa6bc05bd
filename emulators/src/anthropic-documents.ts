// Anthropic's document and image content blocks, checked as the real Messages API checks them: base64
// sources of the permitted media types (PDF documents; jpeg, png, gif and webp images) and at most 100 PDF
// pages in one request, refused with the API's own 400 message.

/** The Messages API's PDF page limit per request (200k-context models). */
export const ANTHROPIC_MAX_PDF_PAGES = 100;
const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

type Block = { type?: unknown; source?: { type?: unknown; media_type?: unknown; data?: unknown } };

/**
 * Pages of a PDF: its page objects (`/Type /Page`), or the page tree's largest `/Count` where the page
 * objects sit in compressed object streams.
 */
export function countPdfPages(bytes: Buffer): number {
  const text = bytes.toString('latin1');
  const pageObjects = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g)].map((m) => Number(m[1] ?? m[2]));
  return Math.max(pageObjects, ...counts, 0);
}

/** The 400 message for the first invalid block, or null when every block is acceptable. */
export function checkContentBlocks(messages: unknown[]): string | null {
  let pages = 0;
  for (const [i, message] of messages.entries()) {
    const content = (message as { content?: unknown })?.content;
    if (!Array.isArray(content)) continue;
    for (const [j, raw] of content.entries()) {
      const block = raw as Block;
      const at = `messages.${i}.content.${j}`;
      if (block?.type === 'text') continue;
      if (block?.type !== 'document' && block?.type !== 'image') {
        return `${at}: Input tag '${String(block?.type)}' found using 'type' does not match any of the expected tags: 'text', 'image', 'document'`;
      }
      const source = block.source;
      if (source?.type !== 'base64' || typeof source.data !== 'string') return `${at}.${block.type}.source: Field required`;
      if (block.type === 'image') {
        if (!IMAGE_MEDIA_TYPES.includes(String(source.media_type))) {
          return `${at}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
        }
        continue;
      }
      if (source.media_type !== 'application/pdf') return `${at}.document.source.base64.media_type: Input should be 'application/pdf'`;
      const bytes = Buffer.from(source.data, 'base64');
      if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) return `${at}.pdf.source.base64.data: The PDF specified was not valid.`;
      pages += countPdfPages(bytes);
      if (pages > ANTHROPIC_MAX_PDF_PAGES) return `${at}.pdf.source.base64.data: A maximum of ${ANTHROPIC_MAX_PDF_PAGES} PDF pages may be provided.`;
    }
  }
  return null;
}
