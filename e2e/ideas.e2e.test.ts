// Topics and hashtags journeys (issue 14 "Acceptance": generate hashtags and topics; spec part 2 §2 "Topics
// and hashtags"), in English and Spanish: a user with access opens the Topics tab, asks for 3 topics and
// copies one and all of them, then the Hashtags tab, asks for hashtags, finds them in the history after a
// reload, re-copies them and deletes the entry. Answers come from the offline Demo model (the OpenAI
// emulator): its markdown answer's list becomes the topics, and `[echo]` answers with the transcript, so the
// hashtags read are the ones written in the subject. A slow generation is stopped first (issue 30 item 1):
// Generate turns into Stop, and nothing is kept.
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import ideasEn from '../web/src/i18n/ideas.en.json';
import ideasEs from '../web/src/i18n/ideas.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { expect, test } from './src/fixtures';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const ideaTexts = { en: ideasEn, es: ideasEs } as const;
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
/** The history's cards (each holds its ideas as 'history-items'). */
const historyEntries = (page: Page) => page.locator('[data-testid^="idea-"]').filter({ has: page.getByTestId('history-items') });
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function ideasJourney(page: Page, lang: UiLang) {
  const t = ideaTexts[lang];
  const user = await userWithAccess(`ideas-${lang}`, lang);
  await signIn(page, lang, user.email, user.password);

  // Topics: the tab, the form within 2 to 5, Generate, the list with a copy button per idea.
  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.topics }).click();
  await page.waitForURL(/\/topics$/);
  await expect.poll(() => page.getByTestId('ideas-empty').textContent()).toBe(t.empty);
  await expectNoSeriousA11yViolations(page, `topics (${lang})`);
  await page.getByTestId('idea-subject').fill(lang === 'en' ? 'Healthy breakfasts for busy parents' : 'Desayunos saludables para padres ocupados');
  await page.getByLabel(fill(t.topics.count, { min: 2, max: 5 })).fill('3');
  await page.getByTestId('generate-ideas').click();
  const result = page.getByTestId('idea-result');
  await result.waitFor();
  const topics = await result.getByTestId('idea-item').allTextContents();
  expect(topics).toHaveLength(3);
  await result.getByRole('button', { name: fill(t.copyOne, { item: topics[1] }) }).click();
  await expect.poll(() => clipboard(page)).toBe(topics[1]);
  await result.getByRole('button', { name: t.copyAll }).click();
  await expect.poll(() => clipboard(page)).toBe(topics.join('\n'));
  // The history lists it.
  await expect.poll(() => historyEntries(page).count()).toBe(1);

  // Hashtags: [echo] makes the answer the transcript, so the hashtags are the subject's (repeats dropped);
  // [rate:0] sends it at once.
  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs.hashtags }).click();
  await page.waitForURL(/\/hashtags$/);
  await page.getByTestId('ideas-empty').waitFor();
  // Stop (issue 30 item 1): a slow answer is stopped (Esc in English, the button in Spanish); nothing is kept.
  await page.getByTestId('idea-subject').fill('[rate:2] Slow hashtags');
  await page.getByTestId('generate-ideas').click();
  const stop = page.getByTestId('stop-ideas');
  await stop.waitFor();
  if (lang === 'en') await page.keyboard.press('Escape');
  else await stop.click();
  await page.getByText(t.stopped).waitFor();
  await expect.poll(() => page.getByTestId('generate-ideas').isEnabled()).toBe(true);
  expect(await page.getByTestId('idea-result').count()).toBe(0);
  await page.getByTestId('ideas-empty').waitFor();
  await page.getByTestId('idea-subject').fill('[echo] [rate:0] #sunrise #TrailRun #sunrise #montaña');
  await page.getByTestId('generate-ideas').click();
  await expect.poll(() => page.getByTestId('idea-result').getByTestId('idea-item').allTextContents()).toEqual(['#sunrise', '#TrailRun', '#montaña']);

  // The history survives a reload, is re-copied as one line, and is deleted.
  await page.reload();
  const entry = historyEntries(page);
  await expect.poll(() => entry.count()).toBe(1);
  await entry.getByRole('button', { name: t.copyAll }).click();
  await expect.poll(() => clipboard(page)).toBe('#sunrise #TrailRun #montaña');
  await entry.getByRole('button', { name: t.delete }).click();
  await expect.poll(() => page.getByTestId('ideas-empty').textContent()).toBe(t.empty);
}

describe('topics and hashtags', () => {
  test('[IDEAS] generate topics and hashtags, copy them, keep and delete the history (English)', async ({ openPage }) => {
    const page = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await ideasJourney(page, 'en');
  });

  test('[IDEAS] generate topics and hashtags, copy them, keep and delete the history (Spanish)', async ({ openPage }) => {
    const page = await openPage({ locale: 'es-ES', permissions: ['clipboard-read', 'clipboard-write'] });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await ideasJourney(page, 'es');
  });
});
