// Super Fetch journeys (issue 14 "Acceptance": run Super Fetch with 3 outputs, like one, give feedback,
// export the xlsx and read it back; spec part 2 §2 "Super Fetch", §9), in English and Spanish: the tab,
// the six required inputs' message, 3 outputs streamed in from the offline Demo model (the OpenAI
// emulator; `[rate:0]` sends each at once), one liked, the feedback form (its text required) whose round
// is given the rated results (`[echo]` answers with what the model received), and the export read back
// with exceljs.
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import sfEn from '../web/src/i18n/super-fetch.en.json';
import sfEs from '../web/src/i18n/super-fetch.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { expect, savedDownload, test } from './src/fixtures';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const sfTexts = { en: sfEn, es: sfEs } as const;
const BRIEF = {
  en: { task: '[rate:0] [words:40] Write an Instagram caption', topic: 'Trail shoes', target: 'Weekend runners', person: 'A running coach', tone: 'Warm', format: 'AIDA' },
  es: { task: '[rate:0] [words:40] Escribe un texto para Instagram', topic: 'Zapatillas de trail', target: 'Corredores', person: 'Un entrenador', tone: 'Cálido', format: 'AIDA' },
} as const;

/** How many like buttons are enabled (an output can be rated once it has ended). */
async function ratable(page: Page, runTestId: string): Promise<number> {
  const likes = page.getByTestId(runTestId).getByTestId('super-fetch-like');
  let enabled = 0;
  for (let i = 0; i < (await likes.count()); i++) if (await likes.nth(i).isEnabled()) enabled++;
  return enabled;
}
const runIds = async (page: Page) =>
  page
    .getByTestId('super-fetch-results')
    .locator('[data-testid^="super-fetch-run-"]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid') ?? ''));

async function superFetchJourney(page: Page, lang: UiLang) {
  const t = sfTexts[lang];
  const user = await userWithAccess(`super-fetch-${lang}`, lang);
  await signIn(page, lang, user.email, user.password);

  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs['super-fetch'] }).click();
  await page.waitForURL(/\/super-fetch$/);
  await page.getByText(t.empty).waitFor();
  await expectNoSeriousA11yViolations(page, `super fetch (${lang})`);

  // Nothing filled: the six required inputs say so.
  await page.getByTestId('super-fetch-generate').click();
  await expect.poll(() => page.getByText(t.required, { exact: true }).count()).toBe(6);
  for (const [key, value] of Object.entries(BRIEF[lang])) await page.getByTestId(`super-fetch-input-${key}`).fill(value);
  await page.getByTestId('super-fetch-outputs').fill('3');
  await page.getByTestId('super-fetch-generate').click();

  // Three outputs stream in; like the second.
  await expect.poll(async () => (await runIds(page)).length).toBe(1);
  const [first] = await runIds(page);
  await expect.poll(() => ratable(page, first)).toBe(3);
  const outputs = page.getByTestId(first).getByTestId('super-fetch-output-content');
  const written = await outputs.allTextContents();
  expect(written.every((text) => text.split(/\s+/).filter(Boolean).length === 40)).toBe(true);
  const like = page.getByTestId(first).getByTestId('super-fetch-like').nth(1);
  await like.click();
  await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');

  // The feedback form: its text is required before a modified prompt.
  await page.getByTestId('super-fetch-mode').getByText(t.mode.feedback).click();
  await page.getByTestId('super-fetch-outputs').fill('1');
  await page.getByTestId('super-fetch-generate').click();
  await page.getByText(t.feedbackRequired).waitFor();
  await page.getByTestId('super-fetch-feedback-liked').getByText(t.liked, { exact: true }).click();
  await page.getByTestId('super-fetch-feedback').fill('[echo] Make it shorter');
  await page.getByTestId('super-fetch-generate').click();
  await expect.poll(async () => (await runIds(page)).length).toBe(2);
  const [second] = await runIds(page);
  await expect.poll(() => ratable(page, second)).toBe(1);
  const echoed = await page.getByTestId(second).getByTestId('super-fetch-output-content').textContent();
  expect(echoed).toContain('Result 2 (liked)');
  // The emulator drops its switches ([echo]) from the transcript it answers with.
  expect(echoed).toMatch(/Feedback: +Make it shorter/);

  // Export: {avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx, newest run first, read back.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('super-fetch-export').click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^Super Fetch_${BRIEF[lang].topic}_\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}\\.xlsx$`));
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await savedDownload(download));
  const sheet = book.getWorksheet(t.title)!;
  expect(sheet.rowCount).toBe(5);
  expect(sheet.getRow(1).getCell(3).value).toBe(t.sheet.content);
  expect(sheet.getRow(2).getCell(3).value).toBe(echoed);
  expect([3, 4, 5].map((r) => sheet.getRow(r).getCell(3).value)).toEqual(written);
  expect(sheet.getRow(4).getCell(4).value).toBe(t.liked);
}

describe('super fetch', () => {
  test('[SUPER FETCH] 3 outputs, like one, feedback, export the xlsx and read it back (English)', async ({ openPage }) => {
    const page = await openPage();
    await superFetchJourney(page, 'en');
  });

  test('[SUPER FETCH] 3 outputs, like one, feedback, export the xlsx and read it back (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await superFetchJourney(page, 'es');
  });
});
