// The prompt, its pending answer and the conversation's updated_at are written by one statement.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, creditHolds, messages, users } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { savePromptAndPendingAnswer, type PromptToSave } from './save-prompt';

describe('savePromptAndPendingAnswer', () => {
  let t: TestApp;
  let owner: BuiltUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx);
  });
  afterAll(() => t.close());

  const newConversation = async (updatedAt = new Date('2020-01-01T00:00:00Z')) => {
    const [row] = await t.ctx.db.insert(conversations).values({ userId: owner.user.userId, name: 'Chat', updatedAt }).returning();
    return row;
  };
  const promptIn = (conversationId: number, content: string): PromptToSave => ({
    conversationId,
    userId: owner.user.userId,
    content,
    model: 'demo',
    messageTypeId: 2,
    avatarId: null,
    organizationId: null,
    favorite: true,
    hold: { exempt: true, words: 2048 },
  });

  it('saves the prompt (done) and its pending answer after it, and bumps the conversation', async () => {
    const conversation = await newConversation();
    const { user, assistant } = await savePromptAndPendingAnswer(t.ctx.db, promptIn(conversation.conversationId, 'Hello'));
    expect(user).toMatchObject({ role: 'user', content: 'Hello', status: 'done', favorite: true, model: 'demo', messageTypeId: 2, userMessageId: null });
    expect(assistant).toMatchObject({ role: 'assistant', content: null, prompt: 'Hello', status: 'pending', favorite: false, model: 'demo', messageTypeId: 2 });
    expect(assistant.userMessageId).toBe(user.messageId);
    expect(assistant.messageId).toBeGreaterThan(user.messageId);
    const stored = await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversation.conversationId));
    expect(stored.map((row) => row.messageId).sort((a, b) => a - b)).toEqual([user.messageId, assistant.messageId]);
    const [after] = await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversation.conversationId));
    expect(after.updatedAt.getTime()).toBeGreaterThan(conversation.updatedAt.getTime());
  });

  it('pairs each answer with its own prompt when prompts are saved concurrently', async () => {
    const conversation = await newConversation();
    const saved = await Promise.all(Array.from({ length: 8 }, (_, i) => savePromptAndPendingAnswer(t.ctx.db, promptIn(conversation.conversationId, `p${i}`))));
    for (const { user, assistant } of saved) {
      expect(assistant.prompt).toBe(user.content);
      expect(assistant.userMessageId).toBe(user.messageId);
      expect(assistant.messageId).toBeGreaterThan(user.messageId);
    }
    const ids = saved.flatMap(({ user, assistant }) => [user.messageId, assistant.messageId]);
    expect(new Set(ids).size).toBe(16);
  });

  it('writes nothing when no words can be held, and holds a whole answer or what is left', async () => {
    const conversation = await newConversation();
    const held = (await t.ctx.db.select({ h: users.heldWords }).from(users).where(eq(users.userId, owner.user.userId)))[0].h;
    // The owner has no words.
    const refused = savePromptAndPendingAnswer(t.ctx.db, { ...promptIn(conversation.conversationId, 'Hello'), hold: { exempt: false, words: 2048 } });
    await expect(refused).rejects.toMatchObject({ status: 412, messageKey: 'words_exhausted' });
    expect(await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversation.conversationId))).toEqual([]);
    const [after] = await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversation.conversationId));
    expect(after.updatedAt).toEqual(conversation.updatedAt);

    await t.ctx.db.update(users).set({ availableWords: held + 2100 }).where(eq(users.userId, owner.user.userId));
    const first = await savePromptAndPendingAnswer(t.ctx.db, { ...promptIn(conversation.conversationId, 'One'), hold: { exempt: false, words: 2048 } });
    const second = await savePromptAndPendingAnswer(t.ctx.db, { ...promptIn(conversation.conversationId, 'Two'), hold: { exempt: false, words: 2048 } });
    expect([first.wordLimit, second.wordLimit]).toEqual([2048, 52]);
    const holds = await t.ctx.db.select().from(creditHolds).where(eq(creditHolds.userId, owner.user.userId));
    expect(holds.map((hold) => [hold.sourceType, hold.sourceId, hold.words])).toEqual(
      expect.arrayContaining([['message', String(first.assistant.messageId), 2048], ['message', String(second.assistant.messageId), 52]]),
    );
    await expect(savePromptAndPendingAnswer(t.ctx.db, { ...promptIn(conversation.conversationId, 'Three'), hold: { exempt: false, words: 2048 } })).rejects.toMatchObject({ status: 412 });
  });

  it('is all or nothing: a failing insert leaves no message and the conversation untouched', async () => {
    const conversation = await newConversation();
    // No such user: the messages' foreign key refuses the rows, after the conversation's UPDATE ran.
    const orphan = { ...promptIn(conversation.conversationId, 'Hello'), userId: owner.user.userId + 1_000_000 };
    await expect(savePromptAndPendingAnswer(t.ctx.db, orphan)).rejects.toThrow();
    expect(await t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversation.conversationId))).toEqual([]);
    const [after] = await t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversation.conversationId));
    expect(after.updatedAt).toEqual(conversation.updatedAt);
  });
});
