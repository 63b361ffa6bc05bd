// Super Fetch journeys (issue 14 "Acceptance": run Super Fetch with 3 outputs, like one, give feedback,
// export the xlsx and read it back; spec part 2 §2 "Super Fetch", §9), in English and Spanish: the tab,
// the six required inputs' message, 3 outputs streamed in from the offline Demo model (the OpenAI
// emulator; `[rate:0]` sends each at once), one liked, the feedback form (its text required) whose round
// is given the rated results (`[echo]` answers with what the model received), and the export read back
// with exceljs. Outputs show as rendered markdown (a heading, not `###`) and the export holds their clean
// text (issue 30 item 2). Stop (issue 30 item 1): a long Super Fetch stopped mid-stream keeps its partial
// text, is marked stopped, is charged only the words written, and the form is free at once.
import { countWords } from '@pluma/common/rules/token-estimate';
import type { SuperFetchHistory } from '@pluma/common/super-fetch';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import sfEn from '../web/src/i18n/super-fetch.en.json';
import sfEs from '../web/src/i18n/super-fetch.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, savedDownload, test } from './src/fixtures';
import { newcomer, signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const sfTexts = { en: sfEn, es: sfEs } as const;
const BRIEF = {
  en: { task: '[rate:0] [words:40] Write an Instagram caption', topic: 'Trail shoes', target: 'Weekend runners', person: 'A running coach', tone: 'Warm', format: 'AIDA' },
  es: { task: '[rate:0] [words:40] Escribe un texto para Instagram', topic: 'Zapatillas de trail', target: 'Corredores', person: 'Un entrenador', tone: 'Cálido', format: 'AIDA' },
} as const;

/** Whitespace aside: the page's rendered text and the export's clean text read the same. */
const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();
const MARKDOWN_MARKS = /###|\*\*|\| --- \||```/;

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
  // Rendered like the chat: the answer's `### title` is a heading, its 40 words less the mark shown.
  await expect.poll(() => outputs.getByRole('heading').count()).toBe(3);
  const written = await outputs.allInnerTexts();
  expect(written.every((text) => !MARKDOWN_MARKS.test(text) && text.split(/\s+/).filter(Boolean).length === 39)).toBe(true);
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
  const echoed = await page.getByTestId(second).getByTestId('super-fetch-output-content').innerText();
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
  // Clean text: what the page shows, without markdown marks (the echo quotes the earlier outputs inline,
  // marks and all, as the model received them: only its words are checked).
  const cells = [2, 3, 4, 5].map((r) => String(sheet.getRow(r).getCell(3).value));
  expect(cells[0]).toContain('Result 2 (liked)');
  expect(cells.slice(1).some((cell) => MARKDOWN_MARKS.test(cell))).toBe(false);
  expect(cells.slice(1).map(normalized)).toEqual(written.map(normalized));
  expect(sheet.getRow(4).getCell(4).value).toBe(t.liked);
}

/** Signs a user up with a plan of counted words (the unlimited one charges nothing visible). */
async function userWithWords(tag: string) {
  const user = newcomer(tag);
  const { token, user: created } = await apiRequest<{ token: string; user: { user_id: number } }>('POST', '/auth/signup', { body: { ...user, lang: 'en' } });
  const products = await apiRequest<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  const plan = products.find((p) => p.word_amount !== null && p.word_amount >= 10_000);
  if (!plan) throw new Error('no plan of counted words: the server seeds sample plans on a fresh database');
  await apiRequest('POST', '/users/giveAccess', { token: await adminSessionToken(), body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { ...user, token };
}
const balanceOf = async (token: string) => (await apiRequest<{ available_words: number }>('GET', '/users', { token })).available_words;

describe('super fetch', () => {
  test('[SUPER FETCH] Stop mid-stream: partial text kept, marked stopped, charged only the words written, the form free at once', async ({ openPage }) => {
    const t = sfTexts.en;
    const page = await openPage();
    const user = await userWithWords('super-fetch-stop');
    const before = await balanceOf(user.token);
    await signIn(page, 'en', user.email, user.password);
    await page.getByTestId('app-sidebar').getByRole('link', { name: texts.en.breadcrumbs['super-fetch'] }).click();
    await page.getByText(t.empty).waitFor();
    // Long and slow: 3000 words at 10 a second would take minutes.
    for (const [key, value] of Object.entries({ ...BRIEF.en, task: '[words:3000] [rate:10] Write a long story' })) await page.getByTestId(`super-fetch-input-${key}`).fill(value);
    await page.getByTestId('super-fetch-outputs').fill('2');
    await page.getByTestId('super-fetch-generate').click();

    // While the outputs are written, Generate is Stop; both have written something.
    const stop = page.getByTestId('super-fetch-stop');
    await stop.waitFor();
    const [run] = await runIds(page);
    const contents = page.getByTestId(run).getByTestId('super-fetch-output-content');
    await expect.poll(async () => (await contents.allInnerTexts()).filter((text) => text.split(/\s+/).filter(Boolean).length >= 5).length).toBe(2);
    await stop.click();

    // The form is free at once; both outputs are marked stopped and keep their text.
    await expect.poll(() => page.getByTestId('super-fetch-generate').isEnabled()).toBe(true);
    await expect.poll(() => page.getByTestId(run).getByTestId('super-fetch-output-stopped').count()).toBe(2);
    await expect.poll(() => page.getByTestId(run).getByTestId('super-fetch-output-stopped').first().textContent()).toBe(t.stopped);
    expect(await stop.count()).toBe(0);

    // Saved as stopped with the partial text; charged only those words.
    const avatar = await apiRequest<{ avatar_id: number }>('GET', '/avatars/super-fetch', { token: user.token });
    const saved = async () => (await apiRequest<SuperFetchHistory>('GET', `/super_fetch/messages/${avatar.avatar_id}`, { token: user.token })).runs[0].outputs;
    await expect.poll(async () => (await saved()).map((o) => o.status)).toEqual(['stopped', 'stopped']);
    const outputs = await saved();
    const words = outputs.map((o) => countWords(o.content ?? ''));
    expect(words.every((n) => n >= 5 && n < 3000)).toBe(true);
    await expect.poll(() => balanceOf(user.token)).toBe(before - words[0] - words[1]);
    // The page keeps showing the partial texts, rendered (no markdown marks).
    const shown = await contents.allInnerTexts();
    expect(shown.every((text) => text.split(/\s+/).filter(Boolean).length >= 5 && !MARKDOWN_MARKS.test(text))).toBe(true);
  });


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
