// Chat attachments journey (issue 27: files; spec part 2 §2 "Prompt box … file upload"): a user attaches a
// Word document and a PNG to a prompt, the chips show both ready, the Demo model (the OpenAI emulator, whose
// `[echo]` answers with what it was sent) gets the document's text and the image as an image part, and after
// a reload the prompt still lists its two files.
import { deflateSync, crc32 } from 'node:zlib';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import chatEn from '../web/src/i18n/chat.en.json';
import { expect, test } from './src/fixtures';
import { label, signIn, userWithAccess } from './src/journey-steps';

const t = chatEn;
const SENTENCE = 'We take the 7:40 train to Lisbon and eat pastries in Belem.';

/** A Word document with one paragraph (the parts mammoth and file-type read). */
async function docxWith(text: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 PNG. */
function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

async function attach(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByTestId('attachment-chip').filter({ hasText: file.name }).waitFor();
}

describe('chat attachments', () => {
  test('[CHAT] a Word document and an image attached to a prompt reach the model, and stay listed on the message after a reload', async ({ page }) => {
    const user = await userWithAccess('chat-files', 'en');
    await signIn(page, 'en', user.email, user.password);
    await page.getByTestId('conversations-page').waitFor();
    await page.getByTestId('new-conversation').click();
    const modal = page.getByTestId('conversation-form-modal');
    await modal.getByLabel(label(t.form.name)).fill('Trip notes');
    await modal.getByRole('button', { name: t.actions.create }).click();
    await page.waitForURL(/\/conversations\/\d+$/);

    const image = png();
    await attach(page, { name: 'itinerary.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: await docxWith(SENTENCE) });
    await attach(page, { name: 'map.png', mimeType: 'image/png', buffer: image });
    // The document is read by the server's ingestion pipeline before it is sent; the image needs no reading.
    const chips = page.getByTestId('attachment-chip');
    await page.locator('[data-testid="attachment-chip"][data-state="ready"]').filter({ hasText: 'itinerary.docx' }).waitFor({ timeout: 30_000 });
    await chips.filter({ hasText: 'map.png' }).getByText(`${t.files.state.image}`, { exact: false }).waitFor();

    const input = page.getByRole('textbox', { name: t.prompt.label, exact: true });
    await input.fill('[echo] [rate:0] Which train do we take, and what is on the map?');
    await input.press('Enter');
    // Sent: the composer's chips are gone and the prompt lists its files.
    await expect.poll(() => chips.count()).toBe(0);
    const answer = page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]');
    await answer.waitFor({ timeout: 30_000 });
    const echoed = await answer.getByTestId('message-content').innerText();
    // The emulator's echo: the document's text under its name, and the image as an image part.
    expect(echoed).toContain('itinerary.docx');
    expect(echoed).toContain(SENTENCE);
    expect(echoed).toContain(`[image image/png ${image.length} bytes]`);

    await page.reload();
    const prompt = page.locator('[data-testid="message"][data-role="user"]');
    await prompt.getByTestId('message-files').waitFor();
    const files = prompt.getByTestId('message-files');
    expect(await files.getByText('itinerary.docx').count()).toBe(1);
    expect(await files.getByText('map.png').count()).toBe(1);
  });
});
