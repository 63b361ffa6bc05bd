// Documents journeys (issue 15 item 1 and its acceptance "write a document, reload (nothing lost), export to
// Word and read the .docx back"; spec part 2 §2 "Documents and editor", §5, §9), in English and Spanish: the
// tab, the empty list, a new document starting with the 'Start writing here!' heading, typing in the real
// BlockNote editor (a paragraph with bold, a bullet list through its markdown shortcut), autosave reaching
// 'Saved', a reload that keeps every word, the Word file read back with jszip, and the list finding it.
import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe } from 'vitest';
import docEn from '../web/src/i18n/documents.en.json';
import docEs from '../web/src/i18n/documents.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { expect, test } from './src/fixtures';
import { apiRequest } from './src/api';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const docTexts = { en: docEn, es: docEs } as const;
const FIRST_HEADING = { en: 'Start writing here!', es: '¡Empieza a escribir aquí!' } as const;
const WORDS = {
  en: { name: 'Launch plan', plain: 'We launch in spring ', bold: 'with three markets', bullet: 'Madrid first' },
  es: { name: 'Plan de lanzamiento', plain: 'Lanzamos en primavera ', bold: 'con tres mercados', bullet: 'Madrid primero' },
} as const;

const editorText = (page: Page) => page.locator('.bn-editor').innerText();

/** Focuses the editor and puts the caret after the block's last character (a click may land mid-line). */
async function caretAtEnd(page: Page, block: Locator) {
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

async function documentsJourney(page: Page, lang: UiLang) {
  const t = docTexts[lang];
  const w = WORDS[lang];
  const user = await userWithAccess(`documents-${lang}`, lang);
  await signIn(page, lang, user.email, user.password);

  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.documents }).click();
  await page.waitForURL(/\/documents$/);
  await page.getByTestId('documents-empty').getByText(t.list.empty).waitFor();
  await expectNoSeriousA11yViolations(page, `documents list (${lang})`);

  // A new document: the heading first, then our words.
  await page.getByTestId('new-document').click();
  await page.waitForURL(/\/documents\/new$/);
  const heading = page.locator('.bn-editor [data-content-type="heading"]').first();
  await expect.poll(() => heading.innerText()).toBe(FIRST_HEADING[lang]);
  await page.getByTestId('document-name').fill(w.name);
  await caretAtEnd(page, heading);
  await page.keyboard.press('Enter');
  await page.keyboard.type(w.plain);
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type(w.bold);
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- ');
  await page.keyboard.type(w.bullet);
  await expect.poll(() => page.locator('.bn-editor [data-content-type="bulletListItem"]').count()).toBe(1);

  // Autosave creates it (the address takes its id) and says Saved.
  await page.waitForURL(/\/documents\/\d+$/, { timeout: 15_000 });
  await expect.poll(() => page.getByTestId('document-save-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('saved');
  await page.getByTestId('document-save-state').getByText(t.state.saved).waitFor();
  const url = page.url();

  // One more word, and the page is reloaded straight away: nothing is lost.
  await caretAtEnd(page, page.locator('.bn-editor [data-content-type="bulletListItem"]'));
  await page.keyboard.type('!');
  await page.reload();
  await page.waitForURL(url);
  await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain(`${w.bullet}!`);
  const after = await editorText(page);
  for (const text of [FIRST_HEADING[lang], w.plain.trim(), w.bold]) expect(after).toContain(text);
  expect(await page.getByTestId('document-name').inputValue()).toBe(w.name);
  expect(await page.locator('.bn-editor strong, .bn-editor [data-style-type="bold"]').first().innerText()).toBe(w.bold);
  await expect.poll(() => page.getByTestId('document-save-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('saved');
  await expectNoSeriousA11yViolations(page, `document editor (${lang})`);

  // Word export, read back.
  await page.getByTestId('document-tools-toggle').click();
  await page.getByTestId('document-tools').getByText(t.tools.download).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('document-download-word').click()]);
  expect(download.suggestedFilename()).toBe(`${w.name}.docx`);
  const zip = await JSZip.loadAsync(await readFile(await download.path()));
  const xml = await zip.file('word/document.xml')!.async('string');
  for (const text of [FIRST_HEADING[lang], w.plain.trim(), w.bold, `${w.bullet}!`]) expect(xml).toContain(text);
  expect(xml).toContain('w:pStyle w:val="Heading1"');
  expect(xml).toContain('<w:b/>');

  // The list finds it.
  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.documents }).click();
  await page.waitForURL(/\/documents$/);
  await page.getByTestId('documents-search').fill(w.bold);
  await expect.poll(() => page.getByTestId('document-card').count()).toBe(1);
  expect(await page.getByTestId('document-card').innerText()).toContain(w.name);
}

describe('documents', () => {
  test('[DOCUMENTS] write, autosave, reload with nothing lost, export to Word and read it back (English)', async ({ openPage }) => {
    const page = await openPage();
    await documentsJourney(page, 'en');
  });

  test('[DOCUMENTS] write, autosave, reload with nothing lost, export to Word and read it back (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await documentsJourney(page, 'es');
  });

  // Issue 15: "typing stays fluid at 50,000 characters (bench it)". A document of 50,000 characters (500
  // paragraphs) is opened and 60 characters are typed at its end; Chromium's Event Timing entries give each
  // key's time from input to the next paint. A frame at 60 Hz is 16.7 ms; "fluid" here: the median key under
  // 50 ms and nine keys in ten under 100 ms (not the single slowest: on a shared CI machine one key can meet
  // another process's burst).
  test('[DOCUMENTS] typing stays fluid in a 50,000-character document', async ({ openPage }) => {
    const user = await userWithAccess('documents-bench', 'en');
    const line = 'The quick brown fox jumps over the lazy dog while the editor keeps up. '.repeat(2).slice(0, 99);
    const blocks = Array.from({ length: 500 }, (_, i) => ({ type: 'paragraph', content: [{ type: 'text', text: `${String(i).padStart(3, '0')}${line}`.slice(0, 100), styles: {} }], children: [] }));
    const content = blocks.map((b) => `<p>${b.content[0].text}</p>`).join('');
    const doc = await apiRequest<{ document_id: number; characters: number }>('POST', '/documents', { token: user.token, body: { name: 'Long read', blocks, content } });
    expect(doc.characters).toBeGreaterThanOrEqual(50_000);

    const page = await openPage();
    await signIn(page, 'en', user.email, user.password);
    await page.goto(`/documents/${doc.document_id}`);
    const last = page.locator('.bn-editor [data-content-type="paragraph"]').nth(499);
    await last.waitFor();
    await caretAtEnd(page, last);
    await page.evaluate(() => {
      const w = window as unknown as { keyTimes: number[] };
      w.keyTimes = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'keydown') w.keyTimes.push(entry.duration);
      }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
    });
    const typed = ' and sixty more characters typed at the very end of it all.';
    const started = Date.now();
    await page.keyboard.type(typed, { delay: 30 });
    const elapsed = Date.now() - started;
    await expect.poll(() => last.innerText()).toContain(typed.trim());
    // Entries under 16 ms are not reported: pad with 16 for the median.
    const slow = await page.evaluate(() => (window as unknown as { keyTimes: number[] }).keyTimes);
    const all = [...slow, ...Array.from({ length: Math.max(0, typed.length - slow.length) }, () => 16)].sort((a, b) => a - b);
    const median = all[Math.floor(all.length / 2)];
    const p90 = all[Math.floor(all.length * 0.9)];
    console.info(`[bench] 50k-character document: ${typed.length} keys in ${elapsed} ms; slow keys (>16 ms): ${slow.length}, median ${median} ms, p90 ${p90} ms, max ${Math.max(0, ...slow)} ms`);
    expect(median).toBeLessThan(50);
    expect(p90).toBeLessThan(100);
    await expect.poll(() => page.getByTestId('document-save-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('saved');
  });
});
