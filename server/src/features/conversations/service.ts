// Conversation operations (spec part 2 §2 "Conversations", §7), framework-free: verbNoun({ actor, db, ... })
// (DESIGN.md §7). Every query is scoped in SQL by conversationPolicy.visibleTo(actor): the user, in the request's organization.
import { isDbId, isStorableTimestamp } from '@pluma/common/schema-kit';
import type { ListConversationsQuery } from '@pluma/common/conversations';
import type { ConversationSortKey } from '@pluma/common/constants';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { countColumn, LIST_TOTAL_CAP, pageTotal, SEARCH_TOTAL_CAP, type CappedTotal } from '../../db/capped-count';
import { loweredContainsText } from '../../db/contains-text';
import { after, readPage, searchRead, type PageOrder } from '../../db/page-cursor';
import type { Db } from '../../db/client';
import { conversations, files } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { badRequest, notFound } from '../../platform/http/errors';
import { avatarPolicy } from '../avatars';
import { conversationColumns, conversationPolicy, type ConversationRow } from './policy';
import type { FileRow } from './present';

interface Scope {
  actor: Actor;
  db: Db;
}

/** A conversation with its file's name and type, when it has one (presentConversation shows both). */
export interface ConversationWithFile {
  row: ConversationRow;
  file: Pick<FileRow, 'fileId' | 'name' | 'type'> | null;
}

/** The sort expression and direction of each sort key (spec part 2 §9: sort keys). */
function sortSpec(sortBy: ConversationSortKey): { expr: SQL; direction: 'asc' | 'desc'; cast: 'timestamptz' | 'text' } {
  switch (sortBy) {
    case 'createdAt_desc':
      return { expr: sql`${conversations.createdAt}`, direction: 'desc', cast: 'timestamptz' };
    case 'updatedAt_desc':
      return { expr: sql`${conversations.updatedAt}`, direction: 'desc', cast: 'timestamptz' };
    // A-Z ignores case, as people read names.
    case 'name_asc':
      return { expr: sql`lower(${conversations.name})`, direction: 'asc', cast: 'text' };
    case 'name_desc':
      return { expr: sql`lower(${conversations.name})`, direction: 'desc', cast: 'text' };
  }
}

/** Keyset cursor: the last row's sort value and id, opaque to clients. */
function encodeCursor(sortBy: ConversationSortKey, value: string, id: number): string {
  return Buffer.from(JSON.stringify([sortBy, value, id])).toString('base64url');
}

function decodeCursor(sortBy: ConversationSortKey, cursor: string): { value: string; id: number } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed[0] === sortBy &&
      typeof parsed[1] === 'string' &&
      isDbId(parsed[2]) &&
      (parsed[1] as string).length <= 400
    ) {
      // A forged cursor must not reach the query: an id past PostgreSQL's integer or a date it cannot hold fails there.
      if (sortBy.endsWith('At_desc') && !isStorableTimestamp(parsed[1] as string)) throw new Error('bad date');
      return { value: parsed[1] as string, id: parsed[2] as number };
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('conversation_cursor_invalid', { cursor: 'conversation_cursor_invalid' });
}

/** Filters shared by the list and its total. */
function listFilters(actor: Actor, q: ListConversationsQuery): SQL[] {
  // The request's organization_id was resolved into actor.organization (platform/auth/organization.ts).
  const filters: SQL[] = [conversationPolicy.visibleTo(actor), eq(conversations.archived, q.archived)];
  if (q.query) {
    filters.push(or(loweredContainsText(conversations.nameLower, q.query), loweredContainsText(conversations.tagsLower, q.query)) as SQL);
  }
  if (q.tags.length > 0) {
    const wanted = sql.join(
      q.tags.map((t) => sql`${t.toLowerCase()}`),
      sql`, `,
    );
    filters.push(sql`${conversations.tagList} && array[${wanted}]::text[]`);
  }
  return filters;
}

export async function listConversations({
  actor,
  db,
  query: q,
}: Scope & { query: ListConversationsQuery }): Promise<{ rows: ConversationWithFile[]; total: CappedTotal; nextCursor: string | null }> {
  const filters = listFilters(actor, q);
  const { expr, direction, cast } = sortSpec(q.sortBy);
  const sort: PageOrder = { key: expr, id: conversations.conversationId, direction, type: cast };
  const pageFilters = [...filters];
  if (q.cursor) pageFilters.push(after(sort, decodeCursor(q.sortBy, q.cursor)));
  // After a cursor, the rows before it are not known: all matches are counted (capped) as for a deep page, in
  // the page's own query (capped-count.ts countColumn).
  const offset = q.cursor ? 0 : q.offset;
  const searching = Boolean(q.query) || q.tags.length > 0;
  const cap = searching ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  // A search's page without a cursor is the part of its first matches past `offset`, and its total their number:
  // one read (page-cursor.ts searchRead).
  const read = searching && !q.cursor
    ? searchRead(conversations, sort, { where: and(...filters), skip: 0 }, offset + cap, q.limit + 1, offset)
    : null;
  const query = db
    .with(...(read ? [read.ids] : []))
    .select({
      conversation: conversationColumns,
      file: { fileId: files.fileId, name: files.name, type: files.type },
      sortValue: sql<string>`(${expr})::text`,
      matches: read?.matches ?? countColumn(conversations, and(...filters), offset + cap),
    })
    .from(conversations)
    .leftJoin(files, eq(files.fileId, conversations.fileId))
    .$dynamic();
  // A search's page starts at `offset` within its ids; a list's page skips `offset` rows.
  const rows = await readPage(query, { page: read?.page, where: and(...pageFilters) }, sort)
    .offset(read ? 0 : offset)
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  // The count starts at the list's first row: the total is the count itself. An empty page after a cursor or
  // past the end carries none: counted alone.
  const counted = rows.length > 0 || (offset === 0 && !q.cursor);
  const total = await pageTotal(db, counted, rows.at(0)?.matches, { table: conversations, where: and(...filters), offset: 0, pageSize: q.limit, pageRows: q.limit, cap: offset + cap });
  const last = page.at(-1);
  return {
    rows: page.map((r) => ({ row: r.conversation, file: r.file?.fileId ? r.file : null })),
    total,
    nextCursor: rows.length > q.limit && last ? encodeCursor(q.sortBy, last.sortValue, last.conversation.conversationId) : null,
  };
}

/** Every tag of the actor's conversations with how many use it (spec part 2 §2: tag view). */
export async function listConversationTags({
  actor,
  db,
  query: q,
}: Scope & { query: { archived?: boolean } }): Promise<{ tags: Array<{ tag: string; count: number }> }> {
  const filters: SQL[] = [conversationPolicy.visibleTo(actor)];
  if (q.archived !== undefined) filters.push(eq(conversations.archived, q.archived));
  const tag = sql<string>`t.tag`;
  const rows = await db
    // Tags group regardless of case; the spelling shown is the one used first.
    .select({ tag: sql<string>`(array_agg(${tag} order by ${conversations.conversationId}))[1]`, count: sql<number>`count(*)::int` })
    .from(conversations)
    .innerJoin(sql`lateral unnest(string_to_array(${conversations.tags}, ',')) as t(tag)`, sql`true`)
    .where(and(...filters, sql`${tag} <> ''`))
    .groupBy(sql`lower(${tag})`)
    .orderBy(sql`lower(${tag})`);
  return { tags: rows.map((r) => ({ tag: r.tag, count: Number(r.count) })) };
}

async function withFile({ db }: Scope, row: ConversationRow): Promise<ConversationWithFile> {
  if (!row.fileId) return { row, file: null };
  const [file] = await db.select({ fileId: files.fileId, name: files.name, type: files.type }).from(files).where(eq(files.fileId, row.fileId)).limit(1);
  return { row, file: file ?? null };
}

export async function getConversation(scope: Scope & { conversationId: number }): Promise<ConversationWithFile> {
  return withFile(scope, await conversationPolicy.require(scope.db, scope.actor, scope.conversationId));
}

export interface CreateConversationInput {
  name: string;
  model?: string | null;
  archived?: boolean;
  tags?: string[];
  avatar_id?: number | null;
}

export async function createConversation({ actor, db, input }: Scope & { input: CreateConversationInput }): Promise<ConversationWithFile> {
  // An avatar the actor may not use (another user's private one) is a 404, as on POST /messages.
  const avatar = input.avatar_id ? await avatarPolicy.find(db, actor, input.avatar_id) : null;
  if (input.avatar_id && !avatar) throw notFound();
  const [row] = await db
    .insert(conversations)
    .values({
      userId: actor.user.userId,
      name: input.name,
      model: input.model ?? null,
      archived: input.archived ?? false,
      tags: (input.tags ?? []).join(','),
      // The organization resolved for this request (never the raw organization_id).
      organizationId: actor.organization?.organizationId ?? null,
      avatarId: avatar?.avatarId ?? null,
    })
    .returning();
  return { row, file: null };
}

export interface UpdateConversationInput {
  conversation_id: number;
  name?: string;
  model?: string | null;
  archived?: boolean;
  tags?: string[];
}

export async function updateConversation({ actor, db, input }: Scope & { input: UpdateConversationInput }): Promise<ConversationWithFile> {
  await conversationPolicy.require(db, actor, input.conversation_id, 'update');
  const changes: Partial<typeof conversations.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.model !== undefined) changes.model = input.model;
  if (input.archived !== undefined) changes.archived = input.archived;
  if (input.tags !== undefined) changes.tags = input.tags.join(',');
  const [row] = await db
    .update(conversations)
    .set(changes)
    .where(and(conversationPolicy.visibleTo(actor), eq(conversations.conversationId, input.conversation_id)))
    .returning();
  return withFile({ actor, db }, row);
}

/** Deletes the conversation and (by cascade) its messages. */
export async function deleteConversation({ actor, db, conversationId }: Scope & { conversationId: number }): Promise<void> {
  await conversationPolicy.require(db, actor, conversationId, 'delete');
  await db.delete(conversations).where(and(conversationPolicy.visibleTo(actor), eq(conversations.conversationId, conversationId)));
}

/** Points the conversation at an uploaded file (spec part 2 §7: POST /conversations/file/{id}). */
export async function setConversationFile({ actor, db, conversationId, fileId }: Scope & { conversationId: number; fileId: number }): Promise<ConversationWithFile> {
  await conversationPolicy.require(db, actor, conversationId, 'update');
  const [row] = await db
    .update(conversations)
    .set({ fileId, updatedAt: new Date() })
    .where(and(conversationPolicy.visibleTo(actor), eq(conversations.conversationId, conversationId)))
    .returning();
  return withFile({ actor, db }, row ?? (await conversationPolicy.require(db, actor, conversationId)));
}
