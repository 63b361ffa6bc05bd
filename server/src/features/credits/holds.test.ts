// Credits cannot be overspent (docs/decisions.md, "Chat charging"): concurrent sends hold words before
// generating, through the real app and the OpenAI wire-protocol emulator. Answers are capped at 30 tokens
// here (AI_MAX_ANSWER_TOKENS), so a hold is at most 30 words.
import { type RunningAiEmulators } from '@pluma/emulators/index';
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { SocketEvents } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditHolds, creditLedger, messages, users } from '../../db/schema';
import { markInterruptedMessages } from '../messages/interrupted';
import { generationsOf, settleGenerations } from '../../platform/ai/generation-registry';
import { savePromptAndPendingAnswer } from '../messages/save-prompt';
import { nextEvent } from '../../platform/realtime/socket-test-helpers';
import { type BuiltUser } from '../../test/factories';
import { useChatApp } from '../../test/chat-app';
import { type TestApp } from '../../test/test-app';
import { reserveWords } from './holds';

const CAP = 30;
const SENDS = 10;

describe('word holds', () => {
  const chat = useChatApp((ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url, AI_MAX_ANSWER_TOKENS: String(CAP) }));
  const { newConversation, send, userWithWords } = chat;
  let t: TestApp;
  let ai: RunningAiEmulators;
  beforeAll(() => {
    ({ t, ai } = chat);
  });

  /** A prompt and its pending answer saved with their hold, as a send does, and never generated. */
  const savePendingAnswer = (who: BuiltUser, conversationId: number) =>
    savePromptAndPendingAnswer(t.ctx.db, {
      conversationId,
      userId: who.user.userId,
      content: 'hi',
      model: null,
      messageTypeId: 1,
      avatarId: null,
      organizationId: null,
      favorite: false,
      hold: { exempt: false, words: CAP },
    });
  /** SENDS sends at once, each asking for `words` words. */
  const sendAtOnce = async (who: BuiltUser, words: number) => {
    const conversationId = await newConversation(who);
    const results = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => send(who, { content: `[words:${words}] note ${i}`, conversation_id: conversationId, stream: false })),
    );
    await settleGenerations(t.ctx);
    return results;
  };
  const userRow = async (who: BuiltUser) => (await t.ctx.db.select().from(users).where(eq(users.userId, who.user.userId)))[0];
  const answersOf = (who: BuiltUser) =>
    t.ctx.db.select().from(messages).where(eq(messages.userId, who.user.userId)).then((rows) => rows.filter((row) => row.role === 'assistant'));
  const ledgerOf = (who: BuiltUser) => t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, who.user.userId)).orderBy(asc(creditLedger.entryId));
  const holdsOf = (who: BuiltUser) => t.ctx.db.select().from(creditHolds).where(eq(creditHolds.userId, who.user.userId));

  /**
   * After everything finished: the words written never exceed `start`, the ledger's balances chain from
   * `start` to the balance, each answer's words_charged is its ledger charge, and no words are held.
   */
  async function expectSettled(who: BuiltUser, start: number) {
    const answers = await answersOf(who);
    const written = answers.reduce((sum, row) => sum + countWords(row.content ?? ''), 0);
    const ledger = await ledgerOf(who);
    let balance = start;
    for (const entry of ledger) {
      balance += entry.words;
      expect(entry.balanceAfter).toBe(balance);
    }
    const row = await userRow(who);
    expect(row.availableWords).toBe(balance);
    expect(written).toBe(start - balance);
    for (const answer of answers) {
      const charges = ledger.filter((entry) => entry.sourceId === String(answer.messageId) || entry.sourceId.startsWith(`${answer.messageId}:`));
      expect(answer.wordsCharged).toBe(-charges.reduce((sum, entry) => sum + entry.words, 0));
      expect(answer.wordsCharged).toBe(countWords(answer.content ?? ''));
    }
    expect(row.heldWords).toBe(0);
    expect(await holdsOf(who)).toEqual([]);
    return { answers, written };
  }

  const WORDS_EXHAUSTED = {
    en: 'You have no words left. Get a subscription or contact support to keep creating content.',
    es: 'No te quedan palabras. Consigue una suscripción o contacta a soporte para seguir creando contenido.',
  };
  /** 412 (the web goes to /sorry) with the translated message. */
  const expectWordsExhausted = (refused: Awaited<ReturnType<typeof send>>[], lang: 'en' | 'es' = 'en') => {
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.statusCode).toBe(412);
      expect(res.json()).toMatchObject({ error: 'premium_required', message: WORDS_EXHAUSTED[lang] });
    }
  };

  it('ten sends at once from a 1-word balance: one answer of one word, nine refused with 412', async () => {
    const who = await userWithWords(1);
    const results = await sendAtOnce(who, 50);
    const created = results.filter((res) => res.statusCode === 201);
    expect(created).toHaveLength(1);
    expectWordsExhausted(results.filter((res) => res.statusCode !== 201));
    const { answers, written } = await expectSettled(who, 1);
    expect(written).toBe(1);
    // Stopped at its hold: cut off, as a length-limited answer is.
    expect(answers).toEqual([expect.objectContaining({ status: 'done', finishReason: 'length', wordsCharged: 1 })]);
  });

  it('ten sends at once from a balance smaller than the cap: one answer of the whole balance; Continue then gets 412', async () => {
    const who = await userWithWords(20);
    const results = await sendAtOnce(who, 50);
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(1);
    expectWordsExhausted(results.filter((res) => res.statusCode !== 201));
    const { answers, written } = await expectSettled(who, 20);
    expect(written).toBe(20);
    const more = await send(who, { conversation_id: answers[0].conversationId, message_id: answers[0].messageId, stream: false });
    expectWordsExhausted([more]);
    expect(await answersOf(who)).toEqual(answers);
  });

  it('ten sends at once from 100 words: holds of 30, 30, 30 and 10 words, exactly the balance written', async () => {
    const who = await userWithWords(100);
    await t.ctx.db.update(users).set({ lang: 'es' }).where(eq(users.userId, who.user.userId));
    const results = await sendAtOnce(who, 50);
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(4);
    expectWordsExhausted(results.filter((res) => res.statusCode !== 201), 'es');
    const { answers, written } = await expectSettled(who, 100);
    expect(written).toBe(100);
    expect(answers.map((row) => row.wordsCharged).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([10, 30, 30, 30]);
  });

  it('an answer shorter than its hold is charged what it wrote and the rest is released', async () => {
    const who = await userWithWords(100);
    const conversationId = await newConversation(who);
    // One after the other: each holds 30 words, writes 5 and gives 25 back, so all four fit in 100.
    for (let i = 0; i < 4; i++) {
      expect((await send(who, { content: `[words:5] short ${i}`, conversation_id: conversationId, stream: false })).statusCode).toBe(201);
      await settleGenerations(t.ctx);
    }
    const { written } = await expectSettled(who, 100);
    expect(written).toBe(20);
  });

  it('unlimited balances and staff hold nothing and are never refused', async () => {
    const unlimited = await userWithWords(UNLIMITED_WORDS);
    const admin = await userWithWords(0, { staffRole: 'admin' });
    for (const who of [unlimited, admin]) {
      const conversationId = await newConversation(who);
      const results = await Promise.all(Array.from({ length: SENDS }, () => send(who, { content: '[words:50] go', conversation_id: conversationId, stream: false })));
      expect(results.map((res) => res.statusCode)).toEqual(Array(SENDS).fill(201));
      expect(await holdsOf(who)).toEqual([]);
      await settleGenerations(t.ctx);
      const answers = await answersOf(who);
      expect(answers.map((row) => countWords(row.content ?? ''))).toEqual(Array(SENDS).fill(CAP));
      expect((await userRow(who)).heldWords).toBe(0);
    }
    expect((await userRow(unlimited)).availableWords).toBe(UNLIMITED_WORDS);
  });

  it('holds atomically: twenty reservations at once never hold more than the balance', async () => {
    const who = await userWithWords(100);
    const request = { userId: who.user.userId, exempt: false, words: CAP };
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => reserveWords(t.ctx.db, request, { type: 'enhance', id: `atomic-${who.user.userId}-${i}` })));
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' && outcome.value ? [outcome.value.limit] : []));
    expect(held.reduce((sum: number, words) => sum + (words ?? 0), 0)).toBe(100);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(20 - held.length);
    const holds = await holdsOf(who);
    expect(holds.reduce((sum, hold) => sum + hold.words, 0)).toBe(100);
    expect((await userRow(who)).heldWords).toBe(100);
    // Past their expiry, the sweep releases them.
    await t.ctx.db.update(creditHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(creditHolds.userId, who.user.userId));
    await markInterruptedMessages(t.ctx, { staleAfterMs: 60 * 60_000 });
    expect(await holdsOf(who)).toEqual([]);
    expect(await userRow(who)).toMatchObject({ heldWords: 0, availableWords: 100 });
  });

  it('an answer left pending by a stopped process is charged by the sweep, which releases its hold', async () => {
    const who = await userWithWords(100);
    const conversationId = await newConversation(who);
    // Saved with its hold, as a send does, but never generated (the process stopped).
    const { assistant, wordLimit } = await savePendingAnswer(who, conversationId);
    expect(wordLimit).toBe(CAP);
    expect((await userRow(who)).heldWords).toBe(CAP);
    await t.ctx.db.update(messages).set({ content: 'four words so far', status: 'streaming' }).where(eq(messages.messageId, assistant.messageId));
    expect(await markInterruptedMessages(t.ctx, { exceptIds: [] })).toBeGreaterThanOrEqual(1);
    const [row] = await t.ctx.db.select().from(messages).where(eq(messages.messageId, assistant.messageId));
    expect(row).toMatchObject({ status: 'interrupted', wordsCharged: 4 });
    await expectSettled(who, 100);
  });

  it('an enhancement stopped part-way is charged for what it wrote, and its hold released', async () => {
    const who = await userWithWords(100);
    const conversationId = await newConversation(who);
    const socket = await chat.connect(who);
    ai.openai.setTokenDelay(20);
    const firstDelta = nextEvent(socket, SocketEvents.messageStreamEnhance, 15_000);
    const res = await send(who, { content: '[words:25] improve this', conversation_id: conversationId, enhance: true, stream: true });
    expect(res.statusCode).toBe(202);
    const { enhance_id } = res.json();
    await firstDelta;
    // An enhancement holds a whole answer of 2048 tokens, or what is left.
    expect((await userRow(who)).heldWords).toBe(100);
    // Deleting the conversation stops its generations.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/conversations/${conversationId}`, headers: who.auth })).statusCode).toBeLessThan(300);
    await settleGenerations(t.ctx);
    expect([...generationsOf(t.ctx).keys()]).not.toContain(`enhance:${enhance_id}`);
    const ledger = await ledgerOf(who);
    expect(ledger).toEqual([expect.objectContaining({ sourceType: 'enhance', sourceId: enhance_id })]);
    expect(-ledger[0].words).toBeGreaterThan(0);
    expect(-ledger[0].words).toBeLessThan(25);
    expect(await userRow(who)).toMatchObject({ heldWords: 0, availableWords: 100 + ledger[0].words });
    expect(await holdsOf(who)).toEqual([]);
  });

  it('a message deleted while its words are held does not keep them past the expiry', async () => {
    const who = await userWithWords(100);
    const conversationId = await newConversation(who);
    const { assistant } = await savePendingAnswer(who, conversationId);
    await t.ctx.db.delete(messages).where(inArray(messages.messageId, [assistant.messageId, assistant.userMessageId ?? 0]));
    await t.ctx.db.update(creditHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(creditHolds.userId, who.user.userId));
    await markInterruptedMessages(t.ctx, { staleAfterMs: 60 * 60_000 });
    expect(await userRow(who)).toMatchObject({ heldWords: 0, availableWords: 100 });
  });
});
