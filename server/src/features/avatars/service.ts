// Avatar operations (spec part 2 §2 "Avatars and trainings", §5, §7 "Avatars"), framework-free:
// verbNoun({ actor, db, ... }) (DESIGN.md §7). Every read and write is scoped by avatarPolicy.visibleTo (policy.ts).
import { AVATAR_CONTEXT_MAX, DEFAULT_AVATAR_NAME, type AvatarKind, type ListAvatarsQuery } from '@pluma/common/avatars';
import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { LIST_TOTAL_CAP, pageTotal, planCount, SEARCH_TOTAL_CAP, type CappedTotal } from '../../db/capped-count';
import { containsText } from '../../db/contains-text';
import { after, keyText, nextPageCursor, planPage, readPage, type PageOrder } from '../../db/page-cursor';
import type { Db, Tx } from '../../db/client';
import { avatarFiles, avatars, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { badRequest } from '../../platform/http/errors';
import { listLinkedFiles } from './files-store';
import { avatarPolicy, defaultAvatarRules, ownedBy, sharedPublicly, type AvatarRow } from './policy';
import type { AvatarDetail, AvatarExtras } from './present';

interface Scope {
  actor: Actor;
  db: Db;
}

const filesCount = sql<number>`(select count(*)::int from ${avatarFiles} where ${avatarFiles.avatarId} = ${avatars.avatarId})`;

/** A listed avatar: its row and what its JSON shows besides. */
export type AvatarListRow = AvatarExtras & { avatar: AvatarRow };

/** The lists' sort, newest change first, as avatars_*_updated_idx have it (ending with the id). */
const LIST_ORDER: PageOrder = { key: sql`${avatars.updatedAt}`, id: avatars.avatarId, direction: 'desc', type: 'timestamptz' };
/** The own list's: avatars_user_org_updated_kind_idx leads with the context (page-cursor.ts PageOrder.context). */
const OWN_ORDER: PageOrder = { ...LIST_ORDER, context: [avatars.userId, avatars.organizationId] };

async function listWhere({ actor, db }: Scope, list: 'own' | 'public', q: ListAvatarsQuery): Promise<{ rows: AvatarListRow[]; total: CappedTotal; nextCursor: string | null }> {
  // The defaults (conversation_assistant, Super Fetch) are never listed (spec part 2 §3).
  const filters: SQL[] = [list === 'own' ? ownedBy(actor) : sharedPublicly(), isNull(avatars.kind)];
  if (q.query) {
    filters.push(or(containsText(avatars.name, q.query), containsText(avatars.description, q.query)) as SQL);
  }
  const where = and(...filters);
  const order = list === 'own' ? OWN_ORDER : LIST_ORDER;
  const scope = ['avatars', list, actor.user.userId, actor.organization?.organizationId ?? null, q.query ?? '', q.limit];
  const cap = q.query ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  const plan = planPage({ table: avatars, order, where, offset: q.offset, pageSize: q.limit, cursor: q.cursor, scope, search: q.query ? { cap } : undefined });
  const found = await readPage(
    db
      .with(...plan.with)
      .select({
        avatar: avatars,
        author: { name: users.name, lastName: users.lastName },
        filesCount,
        sortKey: keyText(order),
        matches: planCount(avatars, plan, cap),
      })
      .from(avatars)
      .leftJoin(users, eq(users.userId, avatars.userId))
      .$dynamic(),
    plan,
    order,
  ).limit(q.limit);
  const last = found.at(-1);
  const total = await pageTotal(db, true, last?.matches, {
    table: avatars,
    where,
    offset: q.offset,
    pageSize: q.limit,
    pageRows: found.length,
    cap,
    after: last ? after(order, { value: last.sortKey, id: last.avatar.avatarId }) : undefined,
  });
  const nextCursor = nextPageCursor(scope, q.offset, q.limit, found.map((r) => ({ sortKey: r.sortKey, id: r.avatar.avatarId })));
  return { rows: found.map(({ sortKey: _key, matches: _matches, ...row }) => row), total, nextCursor };
}

/** GET /avatars: the actor's own avatars in this context, with search. */
export const listAvatars = (scope: Scope & { query: ListAvatarsQuery }) => listWhere(scope, 'own', scope.query);

/** GET /avatars/public/all: the community list. */
export const listPublicAvatars = (scope: Scope & { query: ListAvatarsQuery }) => listWhere(scope, 'public', scope.query);

/** The avatar with its author, files count and linked files: what presentAvatarWithFiles shows. */
export async function loadAvatarDetail({ db, row }: Scope & { row: AvatarRow }): Promise<AvatarDetail> {
  const [author] = await db.select({ name: users.name, lastName: users.lastName }).from(users).where(eq(users.userId, row.userId)).limit(1);
  const [{ n }] = await db.select({ n: count() }).from(avatarFiles).where(eq(avatarFiles.avatarId, row.avatarId));
  return { row, author: author ?? null, filesCount: n, files: await listLinkedFiles(db, row.avatarId) };
}

/** GET /avatars/{id}: the avatar with its files (names only; downloads are checked separately). */
export async function getAvatar(scope: Scope & { avatarId: number }): Promise<AvatarDetail> {
  return loadAvatarDetail({ ...scope, row: await avatarPolicy.require(scope.db, scope.actor, scope.avatarId) });
}

interface NewAvatar {
  name: string;
  description?: string;
  context: string;
}

async function insertAvatar({ actor, db }: { actor: Actor; db: Db | Tx }, input: NewAvatar): Promise<AvatarRow> {
  const [row] = await db
    .insert(avatars)
    .values({
      userId: actor.user.userId,
      // The organization resolved for this request (never a raw organization_id).
      organizationId: actor.organization?.organizationId ?? null,
      name: input.name,
      description: input.description ?? '',
      context: input.context,
    })
    .returning();
  return row;
}

/** POST /avatars (the routes check access and the user's key first). */
export async function createAvatar(scope: Scope & { input: NewAvatar }): Promise<AvatarDetail> {
  return loadAvatarDetail({ ...scope, row: await insertAvatar(scope, scope.input) });
}

export interface UpdateAvatarInput {
  avatar_id: number;
  name?: string;
  description?: string;
  context?: string;
  public?: boolean;
}

/** PUT /avatars and PUT /avatars/add-context/{id}: the owner or an admin; `public` by admins only (403). */
export async function updateAvatar({ actor, db, input }: Scope & { input: UpdateAvatarInput }): Promise<AvatarDetail> {
  const current = await avatarPolicy.require(db, actor, input.avatar_id, 'update');
  if (input.public !== undefined && input.public !== current.public) await avatarPolicy.require(db, actor, input.avatar_id, 'publish');
  const changes: Partial<typeof avatars.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.context !== undefined) changes.context = input.context;
  if (input.public !== undefined) changes.public = input.public;
  const [row] = await db.update(avatars).set(changes).where(eq(avatars.avatarId, current.avatarId)).returning();
  return loadAvatarDetail({ actor, db, row });
}

/** DELETE /avatars/{id}: the avatar, its file links, and files no other avatar links. */
export async function deleteAvatar({ actor, db, avatarId }: Scope & { avatarId: number }): Promise<{ fileIds: number[] }> {
  const row = await avatarPolicy.require(db, actor, avatarId, 'delete');
  const linked = await db.select({ fileId: avatarFiles.fileId }).from(avatarFiles).where(eq(avatarFiles.avatarId, row.avatarId));
  await db.delete(avatars).where(eq(avatars.avatarId, row.avatarId));
  return { fileIds: linked.map((l) => l.fileId) };
}

/** Links the files of `fromAvatarIds` (with their editable flags, once each) to a new avatar. */
async function copyLinks(db: Db | Tx, toAvatarId: number, fromAvatarIds: number[]): Promise<void> {
  const links = await db
    .select({ fileId: avatarFiles.fileId, editable: avatarFiles.editable })
    .from(avatarFiles)
    .where(inArray(avatarFiles.avatarId, fromAvatarIds))
    .orderBy(asc(avatarFiles.avatarFileId));
  const seen = new Set<number>();
  const values = links.filter((l) => !seen.has(l.fileId) && seen.add(l.fileId)).map((l) => ({ avatarId: toAvatarId, fileId: l.fileId, editable: l.editable }));
  if (values.length > 0) await db.insert(avatarFiles).values(values).onConflictDoNothing();
}

/**
 * POST /avatars/clone {avatar_id, name, context?}: a new avatar of the actor with the source's context (or
 * the one given) and links to the same files. The files stay their owner's: the clone uses their knowledge
 * but downloads none it does not own, and editing a .txt file gives the clone its own copy.
 */
export async function cloneAvatar({ actor, db, input }: Scope & { input: { avatar_id: number; name: string; context?: string } }): Promise<AvatarDetail> {
  const source = await avatarPolicy.require(db, actor, input.avatar_id, 'clone');
  const row = await db.transaction(async (tx) => {
    const created = await insertAvatar({ actor, db: tx }, { name: input.name, description: source.description, context: input.context ?? source.context });
    await copyLinks(tx, created.avatarId, [source.avatarId]);
    return created;
  });
  return loadAvatarDetail({ actor, db, row });
}

/** POST /avatars/combine: a new avatar with both contexts (target first) and both avatars' files. */
export async function combineAvatars({
  actor,
  db,
  input,
}: Scope & { input: { selected_avatar_id: number; target_avatar_id: number; name: string } }): Promise<AvatarDetail> {
  if (input.selected_avatar_id === input.target_avatar_id) throw badRequest('avatar_combine_same', { selected_avatar_id: 'avatar_combine_same' });
  const target = await avatarPolicy.require(db, actor, input.target_avatar_id, 'clone');
  const selected = await avatarPolicy.require(db, actor, input.selected_avatar_id, 'clone');
  const context = `${target.context}\n\n${selected.context}`.trim().slice(0, AVATAR_CONTEXT_MAX);
  const row = await db.transaction(async (tx) => {
    const created = await insertAvatar({ actor, db: tx }, { name: input.name, description: target.description, context });
    await copyLinks(tx, created.avatarId, [target.avatarId, selected.avatarId]);
    return created;
  });
  return loadAvatarDetail({ actor, db, row });
}

/** The actor's default avatar of `kind` (Personal), made on first use with `context`. */
export async function ensureDefaultAvatar({ actor, db, kind, context }: { actor: Actor; db: Db; kind: AvatarKind; context: string }): Promise<AvatarRow> {
  const userId = actor.user.userId;
  const find = () =>
    db
      .select()
      .from(avatars)
      .where(and(eq(avatars.userId, userId), eq(avatars.kind, kind)))
      .limit(1);
  const [existing] = await find();
  if (existing) return existing;
  const name = kind === 'conversation_assistant' ? DEFAULT_AVATAR_NAME : 'Super Fetch';
  await db.insert(avatars).values({ userId, organizationId: null, name, context, kind }).onConflictDoNothing();
  const [row] = await find();
  return row;
}

/** GET /avatars/super-fetch: the actor's Super Fetch avatar, made from the configured prompt on first use. */
export async function getSuperFetchAvatar(scope: Scope & { defaultContext: string }): Promise<AvatarDetail> {
  const row = await ensureDefaultAvatar({ actor: scope.actor, db: scope.db, kind: 'super_fetch', context: scope.defaultContext });
  return loadAvatarDetail({ ...scope, row });
}

/**
 * POST /users/resetDefaultAvatar (admins, spec part 2 §6): the user's default avatars are removed with their
 * file links, so the next use makes them again from the current configuration. Returns how many went.
 */
export async function resetDefaultAvatars({ actor, db, userId = actor.user.userId }: { actor: Actor; db: Db; userId?: number }): Promise<{ reset: number; fileIds: number[] }> {
  defaultAvatarRules.authorize(actor, 'reset', null);
  const defaults = await db
    .select({ avatarId: avatars.avatarId })
    .from(avatars)
    .where(and(eq(avatars.userId, userId), sql`${avatars.kind} is not null`));
  if (defaults.length === 0) return { reset: 0, fileIds: [] };
  const ids = defaults.map((d) => d.avatarId);
  const linked = await db.select({ fileId: avatarFiles.fileId }).from(avatarFiles).where(inArray(avatarFiles.avatarId, ids));
  await db.delete(avatars).where(inArray(avatars.avatarId, ids));
  return { reset: ids.length, fileIds: linked.map((l) => l.fileId) };
}

