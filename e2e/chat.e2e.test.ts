// Chat journeys (spec part 2 §2 "Conversations", §4 "Chat"): a user with access creates a conversation,
// sends a prompt to the offline Demo model, watches it stream, reloads mid-stream and sees the answer
// complete, edits, favorites and copies messages, and continues an answer cut off at the length limit —
// in English and in Spanish. The Demo model is the OpenAI emulator: `[words:N]` sets an answer's length
// and `[rate:N]` its tokens per second; the server asks for at most 2048 tokens, so `[words:5000]` stops
// with finish_reason 'length'.
import type { Message, MessagePage } from '@pluma/common/messages-api';
import { startSearchEngineEmulator, startTestSites, type RunningSearchEngine, type RunningTestSites } from '@pluma/emulators/search-engine';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import chatEn from '../web/src/i18n/chat.en.json';
import chatEs from '../web/src/i18n/chat.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
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
  // The unpaced Demo model may write the rest before the page shows it streaming: wait for the end itself.
  await expect.poll(async () => (await messagesOf(user, conversationId))[0].finish_reason, { timeout: 30_000 }).toBe('stop');
  await page.locator(`[data-message-id="${cut.message_id}"][data-status="done"]`).waitFor({ timeout: 30_000 });
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

/**
 * Web search in chat (issue 32): the globe on, a prompt is answered after the "Searching the web…" step with
 * two local pages as numbered source cards linking to them; a reload keeps them; a failing provider gives
 * the plain answer and a notice. The lane's server allows 127.0.0.1 outbound (e2e/src/global-setup.ts).
 */
async function webSearchJourney(page: Page, lang: UiLang, user: ChatUser, engine: RunningSearchEngine, sites: RunningTestSites) {
  const t = chatTexts[lang];
  await signIn(page, lang, user.email, user.password);
  await page.getByTestId('conversations-empty').waitFor();
  await createConversation(page, lang, lang === 'en' ? 'Shade garden' : 'Jardín de sombra');
  const toggle = page.getByRole('button', { name: t.webSearch.toggle, exact: true });
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');

  engine.setDelay(1500);
  // [echo]: the demo model answers with what it was sent, so the answer cites the pages' numbers.
  await sendPrompt(page, lang, `[echo] ${lang === 'en' ? 'How do I care for ferns and moss?' : '¿Cómo cuido helechos y musgo?'}`);
  const answer = answers(page).first();
  await answer.getByText(t.webSearch.searching).waitFor();
  engine.setDelay(0);
  const cards = answer.getByTestId('web-source');
  await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(2);
  await page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
  const links = answer.getByTestId('web-sources').getByRole('link');
  expect(await links.evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
    ['[1] Growing ferns', `${sites.origin}/ferns`],
    ['[2] Moss gardens', `${sites.origin}/moss`],
  ]);
  // The links work: each page answers.
  for (const href of await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))) expect((await fetch(href)).status).toBe(200);
  // A citation [1] in the answer's text opens its source in a new tab.
  const citation = answer.getByTestId('message-content').locator('a.web-citation[data-citation="1"]').first();
  const [opened] = await Promise.all([page.context().waitForEvent('page'), citation.click()]);
  await opened.waitForLoadState('domcontentloaded');
  expect(opened.url()).toBe(`${sites.origin}/ferns`);
  await opened.close();

  // A reload keeps the sources (they are saved with the answer).
  await page.reload();
  await expect.poll(() => answers(page).first().getByTestId('web-source').count()).toBe(2);

  // The provider fails: the answer is written without the web, and says so. (The globe is per visit: a
  // reload turns it off.)
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
  await toggle.click();
  engine.failNext(503);
  await sendPrompt(page, lang, `[words:20] ${lang === 'en' ? 'And hostas?' : '¿Y las hostas?'}`);
  const second = answers(page).nth(1);
  await second.getByTestId('web-search-failed').getByText(t.webSearch.failed).waitFor({ timeout: 20_000 });
  await page.locator(`[data-testid="message"][data-role="assistant"][data-status="done"]`).nth(1).waitFor({ timeout: 30_000 });
  expect(await second.getByTestId('web-source').count()).toBe(0);
}

describe('chat: web search', () => {
  let engine: RunningSearchEngine;
  let sites: RunningTestSites;
  const setProvider = async (value: string) =>
    apiRequest('PUT', '/appconfig', { token: await adminSessionToken(), body: [{ key: 'web_search_provider', value }, { key: 'web_search_url', value: value ? engine.url : '' }] });
  beforeAll(async () => {
    const paragraph = (text: string) => [text, `${text} `.repeat(12)];
    sites = await startTestSites({
      ferns: { title: 'Growing ferns', paragraphs: paragraph('Ferns grow best in shade with moist, rich soil.') },
      moss: { title: 'Moss gardens', paragraphs: paragraph('Moss gardens need acidic soil and steady humidity.') },
    });
    engine = await startSearchEngineEmulator();
    engine.setResults([
      { url: `${sites.origin}/ferns`, title: 'Growing ferns', content: 'Ferns' },
      { url: `${sites.origin}/redirect-metadata`, title: 'Hostile', content: 'A redirect to the metadata address' },
      { url: `${sites.origin}/moss`, title: 'Moss gardens', content: 'Moss' },
    ]);
    await setProvider('searxng');
  });
  afterAll(async () => {
    if (engine) await setProvider('');
    await engine?.close();
    await sites?.close();
  });

  test('[CHAT] web search: steps, two cited pages with working links, kept on reload; a failing provider gives a plain answer and a notice (EN, ES)', async ({ openPage }) => {
    for (const lang of ['en', 'es'] as const) {
      const user = await userWithAccess(`web-search-${lang}`, lang);
      const page = await openPage(lang === 'es' ? { locale: 'es-ES' } : {});
      if (lang === 'es') await page.addInitScript(() => localStorage.setItem('lang', 'es'));
      await webSearchJourney(page, lang, user, engine, sites);
    }
  });
});

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
