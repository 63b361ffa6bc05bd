// Documents journeys (issue 15 item 1 and its acceptance "write a document, reload (nothing lost), export to
// Word and read the .docx back"; spec part 2 §2 "Documents and editor", §5, §9), in English and Spanish: the
// tab, the empty list, a new document starting with an empty heading ('Start writing here!' its placeholder), typing in the real
// BlockNote editor (a paragraph with bold, a bullet list through its markdown shortcut), autosave reaching
// 'Saved', a reload that keeps every word, the Word file read back with jszip, and the list finding it.
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import docEn from '../web/src/i18n/documents.en.json';
import docEs from '../web/src/i18n/documents.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { caretAtEnd, docxXml, editorText } from './src/documents-steps';
import { expect, test } from './src/fixtures';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const docTexts = { en: docEn, es: docEs } as const;
const FIRST_HEADING = { en: 'Start writing here!', es: '¡Empieza a escribir aquí!' } as const;
const WORDS = {
  en: { name: 'Launch plan', plain: 'We launch in spring ', bold: 'with three markets', bullet: 'Madrid first' },
  es: { name: 'Plan de lanzamiento', plain: 'Lanzamos en primavera ', bold: 'con tres mercados', bullet: 'Madrid primero' },
} as const;

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
  // 'Start writing here!' is the empty heading's placeholder, not its text (issue 30 item 6).
  await expect.poll(() => heading.evaluate((el) => getComputedStyle(el, '::after').content)).toBe(JSON.stringify(FIRST_HEADING[lang]));
  expect((await heading.innerText()).trim()).toBe('');
  await page.getByTestId('document-name').fill(w.name);
  await caretAtEnd(page, heading);
  await page.keyboard.type(w.name);
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
  for (const text of [w.name, w.plain.trim(), w.bold]) expect(after).toContain(text);
  expect(after).not.toContain(FIRST_HEADING[lang]);
  expect(await page.getByTestId('document-name').inputValue()).toBe(w.name);
  expect(await page.locator('.bn-editor strong, .bn-editor [data-style-type="bold"]').first().innerText()).toBe(w.bold);
  await expect.poll(() => page.getByTestId('document-save-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('saved');
  await expectNoSeriousA11yViolations(page, `document editor (${lang})`);

  // Word export, read back.
  await page.getByTestId('document-tools-toggle').click();
  await page.getByTestId('document-tools').getByText(t.tools.download).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('document-download-word').click()]);
  expect(download.suggestedFilename()).toBe(`${w.name}.docx`);
  const xml = await docxXml(download);
  for (const text of [w.name, w.plain.trim(), w.bold, `${w.bullet}!`]) expect(xml).toContain(text);
  expect(xml).not.toContain(FIRST_HEADING[lang]);
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
});
