// The actor's messages across conversations (spec part 2 §7 "GET /messages?filters"): favorites, role,
// one conversation, text search; newest first, paged by message_id like a conversation's history.
// Scoped in SQL by messagePolicy.visibleTo(actor) (DESIGN.md §7): their own rows in the request's context.
import type { BrowsedMessage, MessageCitation, MessageStatus } from '@pluma/common/messages-api';
import { and, desc, eq, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { conversations, messages } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { citationsOf } from './avatar-citations';
import { messagePolicy } from './policy';

export interface BrowseMessagesOptions {
  favorite?: boolean;
  role?: 'user' | 'assistant';
  conversation_id?: number;
  query?: string;
  cursor?: number;
  limit: number;
}

const SNIPPET_CHARS = 320;
/** Characters of context kept before the first match. */
const SNIPPET_LEAD = 80;

function browseFilters(actor: Actor, q: BrowseMessagesOptions): SQL[] {
  // A one-off answer (saveOnConversation false) and its prompt are never listed nor found.
  const filters: SQL[] = [messagePolicy.visibleTo(actor), sql`${messages.saveOnConversation}`];
  // Written as literals, not parameters, so the partial index messages_user_favorite_idx applies.
  if (q.favorite === true) filters.push(sql`${messages.favorite}`);
  if (q.favorite === false) filters.push(sql`not ${messages.favorite}`);
  if (q.role) filters.push(eq(messages.role, q.role));
  if (q.conversation_id) filters.push(eq(messages.conversationId, q.conversation_id));
  if (q.query) filters.push(ilike(messages.content, `%${escapeLikePattern(q.query)}%`));
  if (q.cursor) filters.push(lt(messages.messageId, q.cursor));
  return filters;
}

/**
 * One indexed read: the scope and filters walk messages_user_message_idx (or the favorites' partial
 * index, or a conversation's index) newest first and stop after limit + 1 rows. Only a snippet of each
 * content is read out — around the first match when searching — never the whole text.
 */
export async function browseMessages({ actor, db, query: q }: { actor: Actor; db: Db; query: BrowseMessagesOptions }): Promise<{ rows: BrowsedRow[]; nextCursor: number | null }> {
  const start = q.query
    ? sql<number>`greatest(1, strpos(lower(${messages.content}), lower(${q.query}::text)) - ${sql.raw(String(SNIPPET_LEAD))})`
    : sql<number>`1`;
  const rows = await db
    .select({
      messageId: messages.messageId,
      conversationId: messages.conversationId,
      conversationName: conversations.name,
      role: messages.role,
      snippet: sql<string | null>`substr(${messages.content}, ${start}, ${sql.raw(String(SNIPPET_CHARS))})`,
      snippetStart: start,
      length: sql<number | null>`char_length(${messages.content})`,
      model: messages.model,
      avatarId: messages.avatarId,
      favorite: messages.favorite,
      status: messages.status,
      createdAt: messages.createdAt,
    })
    .from(messages)
    // Joined by key only: a message's user_id is its conversation's owner (policy.ts), and repeating the
    // owner on the conversation made PostgreSQL misjudge the join and sort all of the user's messages
    // (87 ms instead of 0.2 ms for a page of a user with 2,000 messages; figures in the report).
    .innerJoin(conversations, eq(conversations.conversationId, messages.conversationId))
    .where(and(...browseFilters(actor, q)))
    .orderBy(desc(messages.messageId))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { rows: page, nextCursor: rows.length > q.limit ? page[page.length - 1].messageId : null };
}

export interface BrowsedRow {
  messageId: number;
  conversationId: number;
  conversationName: string;
  role: string;
  snippet: string | null;
  snippetStart: number;
  length: number | null;
  model: string | null;
  avatarId: number | null;
  favorite: boolean;
  status: string;
  createdAt: Date;
}

/** A page as presented, with the cited passages of its avatar answers: one query for the whole page (none without any). */
export async function presentBrowsedMessages(db: Db, rows: readonly BrowsedRow[]): Promise<BrowsedMessage[]> {
  const citations = await citationsOf(db, rows);
  return rows.map((row) => presentBrowsedMessage(row, citations.get(row.messageId)));
}

export function presentBrowsedMessage(row: BrowsedRow, citations: MessageCitation[] = []): BrowsedMessage {
  let snippet = row.snippet;
  if (snippet !== null) {
    const start = Number(row.snippetStart);
    const cutBefore = start > 1;
    // char_length counts code points, as does spreading a string (its .length counts UTF-16 units).
    const cutAfter = start - 1 + [...snippet].length < Number(row.length ?? 0);
    snippet = `${cutBefore ? '…' : ''}${snippet}${cutAfter ? '…' : ''}`;
  }
  return {
    message_id: row.messageId,
    conversation_id: row.conversationId,
    conversation_name: row.conversationName,
    role: row.role === 'user' ? 'user' : 'assistant',
    snippet,
    model: row.model,
    favorite: row.favorite,
    status: row.status as MessageStatus,
    createdAt: new Date(row.createdAt).toISOString(),
    citations,
  };
}
