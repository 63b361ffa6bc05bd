// Steps the documents journeys share: the real BlockNote editor's text, putting the caret at a block's end,
// and reading a downloaded Word file back (its document.xml, through jszip).
import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import type { Download, Locator, Page } from 'playwright-core';
import { savedDownload } from './fixtures';

export const editorText = (page: Page) => page.locator('.bn-editor').innerText();

/** Focuses the editor and puts the caret after the block's last character (a click may land mid-line). */
export async function caretAtEnd(page: Page, block: Locator) {
  await block.click();
  await block
    .locator('.bn-inline-content')
    .first()
    .evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      range.collapse(false);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
  // The editor takes the DOM selection on the selectionchange event; End keeps the caret there.
  await page.keyboard.press('End');
}

/** The Word file's body XML (word/document.xml). */
export async function docxXml(download: Download): Promise<string> {
  const zip = await JSZip.loadAsync(await readFile(await savedDownload(download)));
  return zip.file('word/document.xml')!.async('string');
}
