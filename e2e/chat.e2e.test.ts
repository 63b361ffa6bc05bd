// Chat journeys (spec part 2 §2 "Conversations", §4 "Chat"): a user with access creates a conversation,
// sends a prompt to the offline Demo model, watches it stream, reloads mid-stream and sees the answer
// complete, edits, favorites and copies messages, and continues an answer cut off at the length limit —
// in English and in Spanish. The Demo model is the OpenAI emulator: `[words:N]` sets an answer's length
// and `[rate:N]` its tokens per second; the server asks for at most 2048 tokens, so `[words:5000]` stops
// with finish_reason 'length'.
import type { Message, MessagePage } from '@pluma/common/messages-api';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import chatEn from '../web/src/i18n/chat.en.json';
import chatEs from '../web/src/i18n/chat.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { label, signIn, userWithAccess, type ChatUser, type UiLang } from './src/journey-steps';

const chatTexts = { en: chatEn, es: chatEs } as const;


function messagesOf(user: ChatUser, conversationId: number): Promise<Message[]> {
  return apiRequest<MessagePage>('GET', `/messages/conversation/${conversationId}?limit=100`, { token: user.token }).then((page) => page.messages);
}

const words = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** The conversation screen's message rows, newest last. */
const rows = (page: Page) => page.getByTestId('message');
const answers = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');

async function createConversation(page: Page, lang: UiLang, name: string): Promise<number> {
  const t = chatTexts[lang];
  await page.getByTestId('conversations-page').waitFor();
  await page.getByTestId('new-conversation').click();
  const modal = page.getByTestId('conversation-form-modal');
  await modal.getByLabel(label(t.form.name)).fill(name);
  await modal.getByRole('button', { name: t.actions.create }).click();
  await page.waitForURL(/\/conversations\/\d+$/);
  await page.getByTestId('prompt-input').waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

async function sendPrompt(page: Page, lang: UiLang, prompt: string) {
  const input = page.getByRole('textbox', { name: chatTexts[lang].prompt.label, exact: true });
  await input.fill(prompt);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe('');
}

async function chatJourney(page: Page, lang: UiLang, user: ChatUser) {
  const t = chatTexts[lang];
  await signIn(page, lang, user.email, user.password);
  // The signed-in home is the conversation list; a new user has none yet.
  await page.getByTestId('conversations-empty').waitFor();
  await expectNoSeriousA11yViolations(page, `conversation list (${lang})`);
  const conversationId = await createConversation(page, lang, lang === 'en' ? 'Garden journal' : 'Diario del jardín');

  // Send: the user's prompt shows at once, then the answer streams in (typing indicator first).
  await sendPrompt(page, lang, `[words:600] [rate:30] ${lang === 'en' ? 'Tell me about gardens' : 'Háblame de jardines'}`);
  const answer = answers(page).first();
  await answer.waitFor();
  await expect.poll(async () => words(await answer.getByTestId('message-content').innerText()), { timeout: 15_000 }).toBeGreaterThan(40);
  expect(await answer.getAttribute('data-status')).toBe('streaming');
  // While it is written Send has turned into Stop (e2e/chat-stop.e2e.test.ts stops one).
  await page.getByRole('button', { name: t.prompt.stop, exact: true }).waitFor();
  expect(await page.getByTestId('send-button').count()).toBe(0);

  // Reload mid-stream: the text saved so far shows, then the final answer once it ends.
  await page.reload();
  const reloaded = answers(page).first();
  await reloaded.waitFor();
  expect(await reloaded.getAttribute('data-status')).not.toBe('done');
  await expect.poll(async () => words(await reloaded.getByTestId('message-content').innerText()), { timeout: 10_000 }).toBeGreaterThan(20);
  await page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
  const [, saved] = await messagesOf(user, conversationId).then((list) => [...list].reverse());
  expect(saved).toMatchObject({ role: 'assistant', status: 'done', finish_reason: 'stop' });
  const shownWords = words(await reloaded.getByTestId('message-content').innerText());
  // The whole answer is on screen (markdown symbols aside, the same words as the saved text).
  expect(Math.abs(shownWords - words(saved.content ?? ''))).toBeLessThanOrEqual(words(saved.content ?? '') * 0.1);
  expect(await page.getByTestId('typing-indicator').count()).toBe(0);

  // Favorite.
  const favorite = reloaded.getByRole('button', { name: t.message.favorite, exact: true });
  await favorite.click();
  await expect.poll(() => favorite.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(async () => (await messagesOf(user, conversationId)).find((m) => m.message_id === saved.message_id)?.favorite).toBe(true);

  // Copy: the success notice, and the clipboard holds the answer's text.
  await reloaded.getByRole('button', { name: t.message.copy, exact: true }).click();
  await page.getByTestId('app-success').getByText(t.message.copied).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved.content);

  // Edit the prompt inline.
  const prompt = rows(page).first();
  await prompt.getByRole('button', { name: t.message.edit, exact: true }).click();
  const edited = lang === 'en' ? 'Tell me about small gardens' : 'Háblame de jardines pequeños';
  const editBox = prompt.getByRole('textbox', { name: t.message.editLabel, exact: true });
  await editBox.fill(edited);
  await prompt.getByRole('button', { name: t.actions.save, exact: true }).click();
  // Saved when the edit box closes (until then, its own text would match the next wait).
  await editBox.waitFor({ state: 'detached' });
  await prompt.getByText(edited, { exact: true }).waitFor();
  await expect.poll(async () => (await messagesOf(user, conversationId)).find((m) => m.role === 'user')?.content).toBe(edited);

  // An answer cut off at the server's token limit offers Continue, which writes on from where it stopped.
  await sendPrompt(page, lang, `[words:5000] [rate:0] ${lang === 'en' ? 'Write a very long essay' : 'Escribe un ensayo muy largo'}`);
  const long = answers(page).nth(1);
  const continueButton = long.getByRole('button', { name: t.message.continue });
  await continueButton.waitFor({ timeout: 30_000 });
  const cut = (await messagesOf(user, conversationId))[0];
  expect(cut).toMatchObject({ role: 'assistant', status: 'done', finish_reason: 'length' });
  await continueButton.click();
  await page.waitForFunction((id) => document.querySelector(`[data-message-id="${id}"]`)?.getAttribute('data-status') !== 'done', cut.message_id);
  await page.locator(`[data-message-id="${cut.message_id}"][data-status="done"]`).waitFor({ timeout: 30_000 });
  await expect.poll(async () => (await messagesOf(user, conversationId))[0].finish_reason).toBe('stop');
  const continued = (await messagesOf(user, conversationId))[0];
  expect(continued.content?.startsWith(cut.content ?? '')).toBe(true);
  expect(words(continued.content ?? '')).toBeGreaterThan(words(cut.content ?? ''));
  await expect.poll(() => continueButton.count()).toBe(0);

  // Every message is loaded: the start-of-conversation badge counts them.
  await page.getByTestId('max-messages').getByText(lang === 'en' ? 'Start of the conversation · 4 messages' : 'Inicio de la conversación · 4 mensajes').waitFor();
  await expectNoSeriousA11yViolations(page, `conversation screen (${lang})`);

  // Back on the list, the conversation's card opens it again.
  await page.goto('/conversations');
  const card = page.getByTestId('conversation-card').filter({ hasText: lang === 'en' ? 'Garden journal' : 'Diario del jardín' });
  await card.getByRole('link', { name: lang === 'en' ? 'Garden journal' : 'Diario del jardín', exact: true }).click();
  await page.waitForURL(`**/conversations/${conversationId}`);
  await page.locator('[data-testid="message"][data-role="user"]').getByText(edited, { exact: true }).waitFor();
}

describe('chat', () => {
  test('[CHAT] a user with access chats with the Demo model: stream, reload mid-stream, favorite, copy, edit, continue', async ({ openPage }) => {
    const user = await userWithAccess('chat-en', 'en');
    const page = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await chatJourney(page, 'en', user);
  });

  test('[CHAT] the same journey in Spanish', async ({ openPage }) => {
    const user = await userWithAccess('chat-es', 'es');
    const page = await openPage({ locale: 'es-ES', permissions: ['clipboard-read', 'clipboard-write'] });
    await page.addInitScript(() => localStorage.setItem('lang', 'es'));
    await chatJourney(page, 'es', user);
  });

  test('[CHAT] the conversation screen fits a 390 px phone and keeps the prompt in view', async ({ openPage }) => {
    const user = await userWithAccess('chat-phone', 'en');
    const page = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(page, 'en', user.email, user.password);
    await createConversation(page, 'en', 'Phone chat with a rather long conversation name');
    await sendPrompt(page, 'en', '[words:200] [rate:0] A table please');
    await page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await page.getByTestId('prompt-input').boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(844);
    await page.goto('/conversations');
    await page.getByTestId('conversation-card').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
