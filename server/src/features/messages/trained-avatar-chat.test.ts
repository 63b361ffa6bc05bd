// Chatting with an avatar's trained model (issue 13 item 4: "a finished training's model becomes selectable
// for that avatar"; spec part 1 §1: the user's own key pays the provider) through the real app and the OpenAI
// emulator: the owner's selected, finished training answers on the owner's own key; someone else using the
// public avatar gets the conversation's model; without the owner's key, 409 ai_key_required before anything
// is saved. The words are metered as for any answer. The training runs through the emulator's fine-tuning API,
// which serves the model it made to its owner's key only.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { avatars, conversations, outputs, trainings, users } from '../../db/schema';
import { endOf, useChatApp } from '../../test/chat-app';
import { buildUser, type BuiltUser } from '../../test/factories';
import { testDbKind } from '../../test/test-db';
import { trainingTiming } from '../trainings/job';

const FINE_TUNED_ELSEWHERE = 'ft:gpt-4o-mini-2024-07-18:pluma-emulator:faro-1:abc12345';
const ANA_KEY = 'sk-proj-trained-chat-ana-0123456789';

describe(`chat with a trained avatar (${testDbKind()})`, () => {
  const chat = useChatApp();
  let ana: BuiltUser;
  let ben: BuiltUser;
  let avatarId: number;
  /** The model Ana's training made in the emulator (which serves it to her key only). */
  let fineTuned: string;

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    chat.t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const sent = () => chat.ai.openai.stats.lastRequest as { model: string; messages: { role: string; content: string }[] };
  const bearer = () => chat.ai.openai.stats.lastHeaders?.authorization;
  const wordsOf = async (who: BuiltUser) => (await chat.t.ctx.db.select({ words: users.availableWords }).from(users).where(eq(users.userId, who.user.userId)))[0].words;

  async function answer(who: BuiltUser, conversationId: number, content: string, extra: Record<string, unknown> = {}) {
    const socket = await chat.connect(who);
    const res = await chat.send(who, { content, conversation_id: conversationId, stream: true, ...extra });
    expect(res.statusCode).toBe(201);
    const end = await endOf(socket, res.json().assistant_message.message_id as number);
    expect(end.message?.status).toBe('done');
    return { created: res.json(), message: end.message! };
  }

  beforeAll(async () => {
    // The training job polls the provider every 5 s; the emulator's run takes 300 ms.
    trainingTiming.pollMs = 100;
    ana = await chat.userWithWords(50_000);
    ben = await chat.userWithWords(50_000);
    expect((await call(ana, 'PUT', '/api/users/ai-key', { api_key: ANA_KEY })).statusCode).toBe(200);
    // The emulator's directive makes the fine-tuning job take 300 ms.
    const created = await call(ana, 'POST', '/api/avatars', { name: 'Keeper', context: 'You are a lighthouse keeper. [fine-tune:ms=300]' });
    expect(created.statusCode).toBe(201);
    avatarId = created.json().avatar_id as number;
    // Shared with the community (the admins' toggle).
    await chat.t.ctx.db.update(avatars).set({ public: true }).where(eq(avatars.avatarId, avatarId));
    // Trained by its owner on her own key: liked outputs as examples, a run to success, the model selected.
    await chat.t.ctx.db.insert(outputs).values(Array.from({ length: 12 }, (_, i) => ({ userId: ana.user.userId, avatarId, prompt: `Write log ${i}`, content: `Log ${i}: foghorn at eleven.`, liked: true })));
    const trainingId = (await call(ana, 'POST', '/api/trainings', { avatar_id: avatarId, name: 'Keeper v1' })).json().training_id as number;
    expect((await call(ana, 'POST', '/api/trainings/execute', { training_id: trainingId })).statusCode).toBe(200);
    let training = (await call(ana, 'GET', `/api/trainings/${trainingId}`)).json();
    for (let i = 0; i < 200 && !['succeeded', 'failed'].includes(training.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      training = (await call(ana, 'GET', `/api/trainings/${trainingId}`)).json();
    }
    expect(training.status).toBe('succeeded');
    fineTuned = training.fine_tuned_model as string;
    expect(fineTuned).toMatch(/^ft:/);
    expect((await call(ana, 'PUT', '/api/trainings', { training_id: trainingId, selected: true })).statusCode).toBe(200);
  }, 30_000);

  it("the owner's answer comes from the fine-tuned model on the owner's own key, metered as any answer, and so does its regeneration", async () => {
    const conversationId = await chat.newConversation(ana);
    const before = await wordsOf(ana);
    const { created, message } = await answer(ana, conversationId, 'When is the foghorn logged?', { avatar_id: avatarId });
    expect(sent().model).toBe(fineTuned);
    expect(bearer()).toBe(`Bearer ${ANA_KEY}`);
    expect(sent().messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('lighthouse keeper') });
    // The rows say which model answered (the chat shows it); the prompt row was sent to it too.
    expect(created.assistant_message.model).toBe(fineTuned);
    expect(message.model).toBe(fineTuned);
    expect(message.content).toBeTruthy();
    expect(message.words_charged).toBeGreaterThan(0);
    expect(await wordsOf(ana)).toBe(before - message.words_charged!);

    const socket = await chat.connect(ana);
    const again = await chat.send(ana, { conversation_id: conversationId, message_id: message.message_id, regenerate: true });
    expect(again.statusCode).toBe(201);
    const rewritten = (await endOf(socket, again.json().assistant_message.message_id as number)).message!;
    expect(rewritten.model).toBe(fineTuned);
    expect(sent().model).toBe(fineTuned);
    expect(bearer()).toBe(`Bearer ${ANA_KEY}`);
  });

  it('a failed trained answer is retried in place by the trained model', async () => {
    const conversationId = await chat.newConversation(ana);
    chat.ai.openai.failNext(500);
    const res = await chat.send(ana, { content: 'Log it.', conversation_id: conversationId, avatar_id: avatarId });
    expect(res.statusCode).toBe(201);
    const answerId = res.json().assistant_message.message_id as number;
    for (let i = 0; i < 200 && (await chat.messageRow(answerId)).status !== 'failed'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await chat.messageRow(answerId)).toMatchObject({ status: 'failed', model: fineTuned });
    const socket = await chat.connect(ana);
    const retried = await chat.send(ana, { conversation_id: conversationId, message_id: answerId });
    expect(retried.statusCode).toBe(200);
    const done = (await endOf(socket, answerId)).message!;
    expect(done).toMatchObject({ message_id: answerId, status: 'done', model: fineTuned });
    expect(sent().model).toBe(fineTuned);
  });

  it("another user chatting with the public avatar gets the conversation's model, on the operator's key", async () => {
    const conversationId = await chat.newConversation(ben);
    const { message } = await answer(ben, conversationId, 'When is the foghorn logged?', { avatar_id: avatarId });
    expect(sent().model).not.toMatch(/^ft:/);
    expect(bearer()).toBe('Bearer test');
    expect(sent().messages[0].content).toContain('lighthouse keeper');
    expect(message.model).toBeNull();
    expect(message.avatar_id).toBe(avatarId);
  });

  it("without the owner's key: 409 ai_key_required in the user's language, and nothing is saved", async () => {
    const conversationId = await chat.newConversation(ana);
    expect((await call(ana, 'DELETE', '/api/users/ai-key')).statusCode).toBeLessThan(300);
    const generations = chat.ai.openai.stats.generations;
    const refused = await chat.send(ana, { content: 'Still there?', conversation_id: conversationId, avatar_id: avatarId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'ai_key_required', message: expect.stringContaining('trained model') });
    expect((await call(ana, 'GET', `/api/messages/conversation/${conversationId}`)).json().messages).toEqual([]);
    // Not even the avatar was kept on the conversation.
    const [row] = await chat.t.ctx.db.select({ avatarId: conversations.avatarId }).from(conversations).where(eq(conversations.conversationId, conversationId));
    expect(row.avatarId).toBeNull();
    expect(chat.ai.openai.stats.generations).toBe(generations);

    // In Spanish for a Spanish speaker (her own trained avatar, her key removed).
    const lucia = await buildUser(chat.t.ctx, { access: true, lang: 'es' });
    expect((await call(lucia, 'PUT', '/api/users/ai-key', { api_key: 'sk-proj-trained-chat-lucia-0123456789' })).statusCode).toBe(200);
    const mine = (await call(lucia, 'POST', '/api/avatars', { name: 'Faro', context: 'Eres farera.' })).json().avatar_id as number;
    await chat.t.ctx.db.insert(trainings).values({ userId: lucia.user.userId, avatarId: mine, name: 'v1', baseModel: 'gpt-4o-mini-2024-07-18', status: 'succeeded', progress: 100, fineTunedModel: FINE_TUNED_ELSEWHERE, selected: true });
    expect((await call(lucia, 'DELETE', '/api/users/ai-key')).statusCode).toBeLessThan(300);
    const refusedEs = await chat.send(lucia, { content: '¿Sigues ahí?', conversation_id: await chat.newConversation(lucia), avatar_id: mine });
    expect(refusedEs.statusCode).toBe(409);
    expect(refusedEs.json().message).toContain('modelo entrenado');
  });
});
