// Chat resilience journey (issue "Hardening" item 8; spec part 2 §2 "Conversations", §4 "Chat", §7
// real-time channel): a user with access starts a chat by typing on the home page and gets an answer;
// a long answer is under way when the server restarts — the screen shows the connection banner, then the
// answer as the server saved it (interrupted, its text kept), which the user continues; then the first
// prompt is edited and its answer regenerated. This journey runs its own server (restartable-server.ts)
// so stopping it does not disturb the other journeys. The Demo model is the OpenAI emulator: `[words:N]`
// sets an answer's length, `[rate:N]` its words per second.
import type { Message, MessagePage } from '@pluma/common/messages-api';
import { countWords } from '@pluma/common/rules/token-estimate';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import chatEn from '../web/src/i18n/chat.en.json';
import { adminLoginBody, apiRequestAt, type ApiOptions } from './src/api';
import { artifactsDir, expect, test } from './src/fixtures';
import { label, newcomer, signIn } from './src/journey-steps';
import { restartableServer, type RestartableServer } from './src/restartable-server';

const t = chatEn;

let server: RestartableServer;

const api = <T>(method: string, pathname: string, options?: ApiOptions) => apiRequestAt<T>(server.baseUrl, method, pathname, options);

/** Signs a user up and gives them access with an unlimited plan, as the admin. */
async function userWithAccess() {
  const user = newcomer('resilience');
  const { token, user: created } = await api<{ token: string; user: { user_id: number } }>('POST', '/auth/signup', { body: { ...user, lang: 'en' } });
  const admin = await api<{ token: string }>('POST', '/auth/login', { body: adminLoginBody() });
  const products = await api<{ product_id: number; word_amount: number | null }[]>('GET', '/products/available');
  const plan = products.find((p) => p.word_amount === null) ?? products[0];
  await api('POST', '/users/giveAccess', { token: admin.token, body: { user_id: created.user_id, product_id: plan.product_id, gift: true } });
  return { ...user, token };
}

const messagesOf = (token: string, conversationId: number) =>
  api<MessagePage>('GET', `/messages/conversation/${conversationId}?limit=100`, { token }).then((page) => [...page.messages].reverse());
/** Words as the server counts (and charges) them. */
const words = countWords;
const answer = (page: Page, id: number) => page.locator(`[data-testid="message"][data-message-id="${id}"]`);
const statusOf = (page: Page, id: number) => answer(page, id).getAttribute('data-status');

async function sendPrompt(page: Page, prompt: string) {
  const input = page.getByRole('textbox', { name: t.prompt.label, exact: true });
  await input.fill(prompt);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe('');
}

beforeAll(async () => {
  server = await restartableServer({
    env: {},
    logFile: path.join(artifactsDir, 'server-resilience.log'),
    seededDataDir: inject('seededDataDir'),
  });
  await server.start();
});

afterAll(async () => {
  await server?.dispose();
});

describe('chat resilience', () => {
  test('[CHAT] start a chat by typing, survive a server restart mid-answer, continue it, edit a prompt and regenerate', async ({ openPage }) => {
    const user = await userWithAccess();
    const page = await openPage({ baseURL: server.baseUrl });
    await signIn(page, 'en', user.email, user.password);

    // Start a chat by just typing on the home page: the conversation is named from the prompt.
    const first = '[words:40] [rate:0] Plan a small herb garden';
    const start = page.getByRole('textbox', { name: label(t.start.label) });
    await start.fill(first);
    await start.press('Enter');
    await page.waitForURL(/\/conversations\/\d+$/);
    const conversationId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: first }).waitFor();
    await page.locator('[data-testid="message"][data-role="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
    const [prompt, firstAnswer] = await messagesOf(user.token, conversationId);
    expect(prompt).toMatchObject({ role: 'user', content: first });
    expect(firstAnswer).toMatchObject({ role: 'assistant', status: 'done' });
    expect(words(firstAnswer.content ?? '')).toBe(40);

    // A long, slow answer is being written...
    await sendPrompt(page, '[words:1500] [rate:25] Write a long story about the garden');
    let long: Message | undefined;
    await expect
      .poll(async () => {
        long = (await messagesOf(user.token, conversationId)).at(-1);
        return long?.role === 'assistant' && long.status === 'streaming' ? words(long.content ?? '') : 0;
      }, { timeout: 20_000 })
      .toBeGreaterThan(10);
    const longId = long!.message_id;
    await expect.poll(async () => words(await answer(page, longId).getByTestId('message-content').innerText())).toBeGreaterThan(10);

    // ...when the server restarts. The screen says the connection is lost while it is down.
    await server.stop();
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor({ timeout: 20_000 });
    expect(await banner.getAttribute('role')).toBe('status');
    expect(await banner.innerText()).toContain(t.connection.lost);
    await server.start();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });

    // Back: the answer shows as the server saved it — interrupted, its text kept, no indicator spinning.
    await expect.poll(() => statusOf(page, longId), { timeout: 20_000 }).toBe('interrupted');
    const saved = (await messagesOf(user.token, conversationId)).find((m) => m.message_id === longId)!;
    expect(saved).toMatchObject({ status: 'interrupted', finish_reason: 'interrupted' });
    expect(words(saved.content ?? '')).toBeGreaterThan(10);
    expect(await answer(page, longId).getByTestId('typing-indicator').count()).toBe(0);

    // Continue writes on from where it stopped, in the same answer.
    await answer(page, longId).getByRole('button', { name: t.message.continue }).click();
    await expect.poll(() => statusOf(page, longId), { timeout: 60_000 }).toBe('done');
    const continued = (await messagesOf(user.token, conversationId)).find((m) => m.message_id === longId)!;
    expect(continued.content?.startsWith(saved.content ?? '')).toBe(true);
    expect(words(continued.content ?? '')).toBeGreaterThan(words(saved.content ?? ''));
    expect((await messagesOf(user.token, conversationId)).filter((m) => m.role === 'assistant')).toHaveLength(2);

    // Edit the first prompt, then accept the offer to regenerate its answer from the new text.
    const edited = '[words:30] [rate:0] Plan a tiny herb garden';
    const promptRow = answer(page, prompt.message_id);
    await promptRow.getByRole('button', { name: t.message.edit, exact: true }).click();
    await promptRow.getByRole('textbox', { name: t.message.editLabel }).fill(edited);
    await promptRow.getByRole('button', { name: t.actions.save, exact: true }).click();
    const offer = promptRow.getByTestId('regenerate-offer');
    await offer.getByRole('button', { name: t.message.regenerateAnswer }).click();
    await offer.waitFor({ state: 'detached' });
    let regenerated: Message | undefined;
    await expect
      .poll(async () => {
        regenerated = (await messagesOf(user.token, conversationId)).find((m) => m.role === 'assistant' && m.user_message_id === prompt.message_id && m.message_id !== firstAnswer.message_id);
        return regenerated?.status;
      }, { timeout: 30_000 })
      .toBe('done');
    expect(regenerated).toMatchObject({ prompt: edited });
    expect(words(regenerated!.content ?? '')).toBe(30);
    await expect.poll(() => statusOf(page, regenerated!.message_id), { timeout: 15_000 }).toBe('done');
    expect(await page.getByTestId('typing-indicator').count()).toBe(0);

    // The conversation list sits beside the chat on this desktop-wide window.
    await page.getByTestId('conversation-sidebar').getByRole('link', { name: first }).waitFor();
  });
});
