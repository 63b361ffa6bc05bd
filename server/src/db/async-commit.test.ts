// Asynchronous commit applies to the statement's own transaction and never to the connection afterwards
// (a pooled connection reused by a charge must commit durably).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savePromptAndPendingAnswer } from '../features/messages/save-prompt';
import { conversations } from './schema';
import { buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { asyncCommitCte } from './async-commit';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe('asyncCommitCte', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('turns synchronous commit off inside its transaction only', async () => {
    const inside = await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`with async_commit as (${asyncCommitCte}) select exists (select 1 from async_commit) as read`);
      return rowsOf(await tx.execute(sql`show synchronous_commit`))[0].synchronous_commit;
    });
    expect(inside).toBe('off');
    // PGlite has one connection, so this reads the very session the transaction ran on.
    expect(rowsOf(await t.ctx.db.execute(sql`show synchronous_commit`))[0].synchronous_commit).toBe('on');
  });

  it('leaves the session durable after a prompt is saved', async () => {
    const owner = await buildUser(t.ctx);
    const [conversation] = await t.ctx.db.insert(conversations).values({ userId: owner.user.userId, name: 'Chat' }).returning();
    const saved = await savePromptAndPendingAnswer(t.ctx.db, {
      conversationId: conversation.conversationId,
      userId: owner.user.userId,
      content: 'Hello',
      model: null,
      messageTypeId: 1,
      avatarId: null,
      organizationId: null,
      favorite: false,
      hold: { exempt: true, words: 100 },
    });
    expect(saved.assistant.status).toBe('pending');
    const settings = await Promise.all(Array.from({ length: 4 }, () => t.ctx.db.execute(sql`show synchronous_commit`)));
    expect(settings.map((result) => rowsOf(result)[0].synchronous_commit)).toEqual(['on', 'on', 'on', 'on']);
  });
});
