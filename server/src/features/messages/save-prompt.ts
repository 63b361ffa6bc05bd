// Saving a prompt: its user message, the pending answer (DESIGN.md §4: the answer's row exists before its
// first chunk, content null = pending) and the conversation's updated_at, in ONE statement. It runs before
// every answer's provider call; as a transaction it took five round trips (BEGIN, two inserts, an update,
// COMMIT), and PGlite runs each on the event loop (bench/chat-first-token.mjs). One statement is atomic too.
// It also holds the answer's words (credits/holds.ts) and writes nothing when none can be held.
import { getTableColumns, is, sql, SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { asyncCommitCte } from '../../db/async-commit';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import { holdCtes, premiumRequired } from '../credits';
import { preparedPerDatabase } from '../../db/prepared';
import type { MessageRow } from './present';

export interface PromptToSave {
  conversationId: number;
  userId: number;
  content: string;
  /** The model's text when it differs from content (a hidden template prompt: templated-prompt.ts); never presented. */
  modelContent?: string | null;
  model: string | null;
  messageTypeId: number;
  avatarId: number | null;
  organizationId: number | null;
  favorite: boolean;
  /** false: a one-off answer (both rows removed once it ends; finalize.ts). */
  saveOnConversation?: boolean;
  /** true: the prompt's row is removed once the answer is done (finalize.ts). */
  deleteUserMsg?: boolean;
  /** The answer's word hold (credits/holds.ts holdRequest): exempt = staff; words = the answer's cap. */
  hold: { exempt: boolean; words: number };
}

export interface SavedPrompt {
  user: MessageRow;
  assistant: MessageRow;
  /** Words the answer may write (its hold); null = no limit (staff, unlimited balance). */
  wordLimit: number | null;
}

type MessageKey = keyof typeof messages._.columns;

/**
 * One row of `messages` as a select list in the table's column order (insert ... select lists every
 * column): the given values, else the column's default, else null; each cast to the column's type.
 */
function messageSelectList(values: Partial<Record<MessageKey, SQL>>): SQL {
  const list = Object.entries(getTableColumns(messages)).map(([key, column]: [string, PgColumn]) => {
    const type = sql.raw(column.getSQLType() === 'serial' ? 'integer' : column.getSQLType());
    const value = values[key as MessageKey];
    if (value) return sql`(${value})::${type}`;
    if (is(column.default, SQL)) return sql`(${column.default})::${type}`;
    if (column.default !== undefined && column.default !== null) return sql`${sql.raw(literal(column.default))}::${type}`;
    return sql`null::${type}`;
  });
  return sql.join(list, sql`, `);
}

function literal(value: unknown): string {
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
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
  const promptId = sql`(select min(id) from ids)`;
  const answerId = sql`(select max(id) from ids)`;
  // The answer's word hold, before anything is written (credits/holds.ts): without hold_ok nothing is.
  const exempt = sql`${sql.placeholder('exempt')}::boolean`;
  const holdUser = db.$with('hold_user', {}).as(holdCtes.holdUser({ userId: sql`${sql.placeholder('userId')}::int`, exempt }));
  const holdSize = db.$with('hold_size', {}).as(holdCtes.holdSize({ words: sql`${sql.placeholder('holdWords')}::int` }));
  const holdOk = db.$with('hold_ok', {}).as(holdCtes.holdOk({ exempt }));
  const holdRow = db.$with('hold_row', {}).as(holdCtes.holdRow({ sourceType: sql`'message'`, sourceId: sql`${answerId}::text` }));
  const holdCount = db.$with('hold_count', {}).as(holdCtes.holdCount());
  // The prompt commits without waiting for the disk (db/async-commit.ts): it is on the path to the first token.
  const asyncCommit = db.$with('async_commit', {}).as(asyncCommitCte);
  // A data-modifying CTE runs whether or not the statement reads it; it reads async_commit, so that runs too.
  const touched = db.$with('touched', {}).as(
    sql`update conversations set updated_at = now() where conversation_id = ${sql.placeholder('conversationId')}::int and exists (select 1 from hold_ok) and exists (select 1 from async_commit) returning conversation_id`,
  );
  const common = {
    conversationId: sql`${sql.placeholder('conversationId')}`,
    userId: sql`${sql.placeholder('userId')}`,
    model: sql`${sql.placeholder('model')}`,
    messageTypeId: sql`${sql.placeholder('messageTypeId')}`,
    avatarId: sql`${sql.placeholder('avatarId')}`,
    organizationId: sql`${sql.placeholder('organizationId')}`,
    saveOnConversation: sql`${sql.placeholder('saveOnConversation')}`,
  };
  const prompt = messageSelectList({
    ...common,
    messageId: promptId,
    role: sql`'user'`,
    content: sql`${sql.placeholder('content')}`,
    modelContent: sql`${sql.placeholder('modelContent')}`,
    status: sql`'done'`,
    favorite: sql`${sql.placeholder('favorite')}`,
  });
  const answer = messageSelectList({
    ...common,
    messageId: answerId,
    role: sql`'assistant'`,
    content: sql`null`,
    prompt: sql`${sql.placeholder('content')}`,
    status: sql`'pending'`,
    userMessageId: promptId,
    deleteUserMsg: sql`${sql.placeholder('deleteUserMsg')}`,
  });
  return db
    .with(ids, holdUser, holdSize, holdOk, holdRow, holdCount, asyncCommit, touched)
    .insert(messages)
    .select(sql`select ${prompt} from hold_ok union all select ${answer} from hold_ok`)
    .returning({ ...getTableColumns(messages), wordLimit: sql<number | null>`(select words from hold_row)` })
    .prepare('save_prompt_and_pending_answer');
});

/** Saves the prompt and its pending answer with the answer's word hold; 412 words_exhausted when none can be held. */
export async function savePromptAndPendingAnswer(db: Db, prompt: PromptToSave): Promise<SavedPrompt> {
  const { hold, ...values } = prompt;
  const rows = await savePromptQuery(db).execute({
    ...values,
    modelContent: values.modelContent ?? null,
    saveOnConversation: values.saveOnConversation ?? true,
    deleteUserMsg: values.deleteUserMsg ?? false,
    exempt: hold.exempt,
    holdWords: hold.words,
  });
  if (rows.length === 0) throw premiumRequired('words_exhausted');
  const prompted = rows.find((row) => row.role === 'user');
  const answered = rows.find((row) => row.role === 'assistant');
  if (!prompted || !answered) throw new Error('saving the prompt returned no rows');
  const { wordLimit, ...assistant } = answered;
  const { wordLimit: _none, ...user } = prompted;
  return { user, assistant, wordLimit: wordLimit === null ? null : Number(wordLimit) };
}
