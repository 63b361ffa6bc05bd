// Stop generating (issue 30 item 1, acceptance): a user with a words balance starts a long answer from the
// offline Demo model (the OpenAI emulator: `[words:N]` sets its length, `[rate:N]` its tokens per second),
// stops it mid-stream with Stop (English) or Esc (Spanish, where Stop reads "Detener"): the text written
// stays, marked stopped, the balance shown drops by exactly the words written, and the prompt box is free
// at once — the next prompt is typed right away and sent as soon as Send is back.
import { countWords } from '@pluma/common/rules/token-estimate';
import type { Message, MessagePage } from '@pluma/common/messages-api';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import chatEn from '../web/src/i18n/chat.en.json';
import chatEs from '../web/src/i18n/chat.es.json';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { newcomer, signIn, type ChatUser, type UiLang } from './src/journey-steps';

const chatTexts = { en: chatEn, es: chatEs } as const;
const LONG_ANSWER_WORDS = 800;

/** Signs a user up (API) and gives them a plan with a words balance (the seeded plans: 50,000 words). */
async function userWithWords(tag: string, lang: UiLang): Promise<ChatUser> {
  const user = newcomer(tag);
  const { token, user: created } = await apiRequest<{ token: string; user: { user_id: number } }>('POST', '/auth/signup', { body: { ...user, lang } });
  const products = await apiRequest<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  const plan = products.find((p) => p.word_amount !== null && p.word_amount > LONG_ANSWER_WORDS);
  if (!plan) throw new Error('no plan with a words balance: the server seeds sample plans on a fresh database');
  await apiRequest('POST', '/users/giveAccess', { token: await adminSessionToken(), body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { email: user.email, password: user.password, token };
}

const messagesOf = (user: ChatUser, conversationId: number) =>
  apiRequest<MessagePage>('GET', `/messages/conversation/${conversationId}?limit=100`, { token: user.token }).then((page) => page.messages);

/** The words balance in the sidebar, as a number (its digits, whatever the locale's grouping). */
async function shownBalance(page: Page): Promise<number> {
  const text = await page.getByTestId('words-balance').innerText();
  return Number(text.replace(/\D/g, ''));
}

const shownWords = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

async function stopJourney(page: Page, lang: UiLang, user: ChatUser, how: 'button' | 'escape') {
  const t = chatTexts[lang];
  await signIn(page, lang, user.email, user.password);
  const { conversation_id: conversationId } = await apiRequest<{ conversation_id: number }>('POST', '/conversations', { token: user.token, body: { name: lang === 'en' ? 'Stopped story' : 'Historia detenida' } });
  await page.goto(`/conversations/${conversationId}`);
  const input = page.getByRole('textbox', { name: t.prompt.label, exact: true });
  await input.waitFor();
  await expect.poll(() => shownBalance(page)).toBeGreaterThan(LONG_ANSWER_WORDS);
  const before = await shownBalance(page);

  // A long, slow answer starts; Send has turned into Stop.
  await input.fill(`[words:${LONG_ANSWER_WORDS}] [rate:25] ${lang === 'en' ? 'Tell me a long story about a lighthouse' : 'Cuéntame una historia larga sobre un faro'}`);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe('');
  const answer = page.locator('[data-testid="message"][data-role="assistant"]').first();
  await expect.poll(async () => shownWords(await answer.getByTestId('message-content').innerText()), { timeout: 20_000 }).toBeGreaterThan(20);
  expect(await answer.getAttribute('data-status')).toBe('streaming');
  const stop = page.getByRole('button', { name: t.prompt.stop, exact: true });
  await stop.waitFor();
  expect(await page.getByTestId('send-button').count()).toBe(0);

  // Stop mid-stream, and the next prompt is typed at once (the box is not blocked).
  if (how === 'button') await stop.click();
  else await input.press('Escape');
  const next = lang === 'en' ? '[words:15] [rate:0] Now a short one' : '[words:15] [rate:0] Ahora una corta';
  await input.fill(next);

  // The answer ends with the text written so far, marked stopped, with Continue offered.
  await answer.getByTestId('stopped-mark').getByText(t.message.stopped, { exact: true }).waitFor();
  expect(await answer.getAttribute('data-status')).toBe('done');
  await answer.getByRole('button', { name: t.message.continue, exact: true }).waitFor();
  const [saved] = (await messagesOf(user, conversationId)).filter((m: Message) => m.role === 'assistant');
  expect(saved).toMatchObject({ status: 'done', finish_reason: 'stopped' });
  const written = countWords(saved.content ?? '');
  expect(written).toBeGreaterThan(20);
  expect(written).toBeLessThan(LONG_ANSWER_WORDS);
  expect(saved.words_charged).toBe(written);
  // What the screen shows is the text kept (markdown symbols aside, the same words).
  expect(Math.abs(shownWords(await answer.getByTestId('message-content').innerText()) - written)).toBeLessThanOrEqual(Math.ceil(written * 0.1));
  // The balance shown drops by the words written, not by the answer asked for.
  await expect.poll(() => shownBalance(page)).toBe(before - written);

  // Send is back with the prompt typed meanwhile: it is sent and answered.
  const send = page.getByTestId('send-button');
  await expect.poll(() => send.isEnabled()).toBe(true);
  expect(await input.inputValue()).toBe(next);
  await input.press('Enter');
  await page.locator('[data-testid="message"][data-role="user"]').getByText(next, { exact: true }).waitFor();
  await page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]').nth(1).waitFor({ timeout: 30_000 });
  const answers = (await messagesOf(user, conversationId)).filter((m: Message) => m.role === 'assistant');
  expect(answers.map((m) => [m.finish_reason, m.words_charged])).toEqual([
    ['stop', 15],
    ['stopped', written],
  ]);
  await expect.poll(() => shownBalance(page)).toBe(before - written - 15);
}

describe('chat: stop generating', () => {
  test('[CHAT] Stop ends a long answer mid-stream: the text stays, marked stopped, charged for what was written, the box free at once', async ({ openPage }) => {
    const user = await userWithWords('chat-stop-en', 'en');
    const page = await openPage();
    await stopJourney(page, 'en', user, 'button');
  });

  test('[CHAT] in Spanish, "Detener" shows while the answer is written and Esc stops it', async ({ openPage }) => {
    const user = await userWithWords('chat-stop-es', 'es');
    const page = await openPage({ locale: 'es-ES' });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await stopJourney(page, 'es', user, 'escape');
  });
});
