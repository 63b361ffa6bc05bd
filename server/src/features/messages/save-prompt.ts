// Saving a prompt: its user message, the pending answer (DESIGN.md §4: the answer's row exists before its
// first chunk, content null = pending) and the conversation's updated_at, in ONE statement. It runs before
// every answer's provider call; as a transaction it took five round trips (BEGIN, two inserts, an update,
// COMMIT), and PGlite runs each on the event loop (bench/chat-first-token.mjs). One statement is atomic too.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations, messages } from '../../db/schema';
import { preparedPerDatabase } from './prepared';
import type { MessageRow } from './present';

export interface PromptToSave {
  conversationId: number;
  userId: number;
  content: string;
  model: string | null;
  messageTypeId: number;
  avatarId: number | null;
  organizationId: number | null;
  favorite: boolean;
}

// Built once per database and prepared: building this query took ~0.13 ms of JavaScript per message, and
// PostgreSQL then also keeps its plan (a named statement per connection).
const savePromptQuery = preparedPerDatabase((db: Db) => {
  // The answer points at its prompt, so both ids are drawn first: two values of the messages sequence,
  // the smaller for the prompt (newest-first paging and the context window order by message_id). The CTE
  // calls nextval, a volatile function, so PostgreSQL evaluates it once however often it is referenced.
  const ids = db.$with('ids').as(
    db.select({ id: sql<number>`nextval(pg_get_serial_sequence('messages', 'message_id'))`.as('id') }).from(sql`generate_series(1, 2)`),
  );
  const promptId = sql<number>`(select min(${ids.id}) from ${ids})`;
  const answerId = sql<number>`(select max(${ids.id}) from ${ids})`;
  // A data-modifying CTE runs whether or not the statement reads it.
  const touched = db.$with('touched').as(
    db
      .update(conversations)
      .set({ updatedAt: sql`now()` })
      .where(eq(conversations.conversationId, sql.placeholder('conversationId')))
      .returning({ conversationId: conversations.conversationId }),
  );
  const common = {
    conversationId: sql.placeholder('conversationId'),
    userId: sql.placeholder('userId'),
    model: sql.placeholder('model'),
    messageTypeId: sql.placeholder('messageTypeId'),
    avatarId: sql.placeholder('avatarId'),
    organizationId: sql.placeholder('organizationId'),
  };
  return db
    .with(ids, touched)
    .insert(messages)
    .values([
      { ...common, messageId: promptId, role: 'user', content: sql.placeholder('content'), status: 'done', favorite: sql.placeholder('favorite') },
      { ...common, messageId: answerId, role: 'assistant', content: null, prompt: sql.placeholder('content'), status: 'pending', userMessageId: promptId },
    ])
    .returning()
    .prepare('save_prompt_and_pending_answer');
});

export async function savePromptAndPendingAnswer(db: Db, prompt: PromptToSave): Promise<{ user: MessageRow; assistant: MessageRow }> {
  const rows = await savePromptQuery(db).execute({ ...prompt });
  const user = rows.find((row) => row.role === 'user');
  const assistant = rows.find((row) => row.role === 'assistant');
  if (!user || !assistant) throw new Error('saving the prompt returned no rows');
  return { user, assistant };
}
