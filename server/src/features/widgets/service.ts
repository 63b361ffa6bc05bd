// Chat widget operations for the owner (contract B "Owner API"; spec part 2 §2 "Chat widget generator", §5),
// framework-free. Every read and write goes through widgetPolicy.visibleTo (policy.ts): another user's widget, or any
// widget in an organization, is a 404.
import { WIDGET_SESSIONS_PAGE_SIZE } from '@pluma/common/widgets';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { avatars, files, widgetMessages, widgets, widgetSessions } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { avatarPolicy, type AvatarRow } from '../avatars';
import { storeUpload, type Upload } from '../files';
import { assertPersonal, widgetPolicy, type WidgetRow } from './policy';

/** A widget with what its JSON shows besides its own columns (present.ts). */
export interface WidgetListRow {
  widget: WidgetRow;
  avatarName: string;
  image: { fileId: number; type: string; publicName: string | null } | null;
  sessionsCount: number;
}

/** 'pw_' + 32 url-safe characters (24 random bytes). */
export const newPublicKey = () => `pw_${randomBytes(24).toString('base64url')}`;

/**
 * The avatar a widget answers as: one the owner may use (avatars/policy.ts; 404 otherwise) that is their own
 * Personal avatar or a public one. A staff admin sees every avatar, but a widget publishes what it answers
 * with, so another user's private avatar is a 404 here too.
 */
async function usableAvatar(db: Db, actor: Actor, avatarId: number): Promise<AvatarRow> {
  const avatar = await avatarPolicy.require(db, actor, avatarId, 'read');
  if (!avatarUsableBy(avatar, actor.user.userId)) throw notFound();
  return avatar;
}

/** Own Personal avatar, or a public community one (the check is repeated before each answer). */
export const avatarUsableBy = (avatar: Pick<AvatarRow, 'userId' | 'organizationId' | 'public' | 'kind'>, userId: number) =>
  (avatar.userId === userId && avatar.organizationId === null) || (avatar.public && avatar.kind === null);

async function storeImage(ctx: AppContext, actor: Actor, upload: Upload | null): Promise<number | null> {
  if (!upload) return null;
  // Public images only (files refuses anything else with 'file_public_images_only'): visitors of the owner's
  // websites load it, through an unguessable name.
  return (await storeUpload({ ctx, actor, upload, isPublic: true })).fileId;
}

// Written out with table names: drizzle leaves columns unqualified inside a select, and both tables have the column.
const sessionsCount = sql<number>`(select count(*)::int from widget_sessions ws where ws.widget_id = "widgets"."widget_id")`;

/** The widgets with what their JSON shows (the avatar's name, the image, the number of sessions). */
async function widgetRows(db: Db, where: ReturnType<typeof and>): Promise<WidgetListRow[]> {
  const rows = await db
    .select({
      widget: widgets,
      avatarName: avatars.name,
      fileId: files.fileId,
      fileType: files.type,
      publicName: files.publicName,
      sessionsCount,
    })
    .from(widgets)
    .innerJoin(avatars, eq(avatars.avatarId, widgets.avatarId))
    .leftJoin(files, eq(files.fileId, widgets.imageFileId))
    .where(where)
    .orderBy(desc(widgets.createdAt), desc(widgets.widgetId));
  return rows.map((r) => ({
    widget: r.widget,
    avatarName: r.avatarName,
    image: r.fileId !== null && r.fileType !== null ? { fileId: r.fileId, type: r.fileType, publicName: r.publicName } : null,
    sessionsCount: Number(r.sessionsCount),
  }));
}

export async function listWidgets(options: { db: Db; actor: Actor }): Promise<WidgetListRow[]> {
  assertPersonal(options.actor);
  return widgetRows(options.db, and(widgetPolicy.visibleTo(options.actor)));
}

export async function readWidget(options: { db: Db; actor: Actor; widgetId: number }): Promise<WidgetListRow> {
  const [row] = await widgetRows(options.db, and(widgetPolicy.visibleTo(options.actor), eq(widgets.widgetId, options.widgetId)));
  if (!row) throw notFound();
  return row;
}

export interface WidgetFields {
  avatar_id: number;
  name: string;
  accent_color: string;
  allowed_origins: string[];
  enabled: boolean;
}

export async function createWidget(options: { ctx: AppContext; actor: Actor; input: WidgetFields; image: Upload | null }): Promise<WidgetRow> {
  const { ctx, actor, input, image } = options;
  assertPersonal(actor);
  await usableAvatar(ctx.db, actor, input.avatar_id);
  const imageFileId = await storeImage(ctx, actor, image);
  const [row] = await ctx.db
    .insert(widgets)
    .values({
      userId: actor.user.userId,
      avatarId: input.avatar_id,
      name: input.name,
      accentColor: input.accent_color,
      allowedOrigins: input.allowed_origins,
      enabled: input.enabled,
      imageFileId,
      publicKey: newPublicKey(),
    })
    .returning();
  return row;
}

export async function updateWidget(options: {
  ctx: AppContext;
  actor: Actor;
  widgetId: number;
  input: Partial<WidgetFields> & { remove_image?: boolean };
  image: Upload | null;
}): Promise<WidgetRow> {
  const { ctx, actor, input, image } = options;
  const before = await widgetPolicy.require(ctx.db, actor, options.widgetId, 'update');
  if (input.avatar_id !== undefined && input.avatar_id !== before.avatarId) await usableAvatar(ctx.db, actor, input.avatar_id);
  const set: Partial<typeof widgets.$inferInsert> = { updatedAt: new Date() };
  if (input.avatar_id !== undefined) set.avatarId = input.avatar_id;
  if (input.name !== undefined) set.name = input.name;
  if (input.accent_color !== undefined) set.accentColor = input.accent_color;
  if (input.allowed_origins !== undefined) set.allowedOrigins = input.allowed_origins;
  if (input.enabled !== undefined) set.enabled = input.enabled;
  if (image) set.imageFileId = await storeImage(ctx, actor, image);
  else if (input.remove_image) set.imageFileId = null;
  const [row] = await ctx.db
    .update(widgets)
    .set(set)
    .where(and(widgetPolicy.visibleTo(actor), eq(widgets.widgetId, before.widgetId)))
    .returning();
  if (!row) throw notFound();
  return row;
}

/**
 * A new public key: the old key answers 404 at once, and every visitor token minted under it is refused (the
 * tokens carry the key version), and so is every session started under it (widget_sessions.key_version): a
 * visitor on the new snippet starts a new session. The old sessions stay listed for the owner.
 */
export async function rotateWidgetKey(options: { db: Db; actor: Actor; widgetId: number }): Promise<WidgetRow> {
  const before = await widgetPolicy.require(options.db, options.actor, options.widgetId, 'update');
  const [row] = await options.db
    .update(widgets)
    .set({ publicKey: newPublicKey(), keyVersion: sql`${widgets.keyVersion} + 1`, updatedAt: new Date() })
    .where(and(widgetPolicy.visibleTo(options.actor), eq(widgets.widgetId, before.widgetId)))
    .returning();
  if (!row) throw notFound();
  return row;
}

/** Removes the widget with its sessions and messages (the words it used stay in the owner's ledger). */
export async function deleteWidget(options: { db: Db; actor: Actor; widgetId: number }): Promise<void> {
  const before = await widgetPolicy.require(options.db, options.actor, options.widgetId, 'delete');
  await options.db.delete(widgets).where(and(widgetPolicy.visibleTo(options.actor), eq(widgets.widgetId, before.widgetId)));
}

const PREVIEW_CHARS = 120;

const sessionColumns = {
  sessionId: widgetSessions.sessionId,
  origin: widgetSessions.origin,
  startedAt: widgetSessions.startedAt,
  lastMessageAt: widgetSessions.lastMessageAt,
  messagesCount: widgetSessions.messagesCount,
  // The visitor's first message (table names written out, as for sessionsCount).
  preview: sql<string | null>`(select left(wm.content, ${sql.raw(String(PREVIEW_CHARS))}) from widget_messages wm
    where wm.session_id = "widget_sessions"."session_id" and wm.role = 'user' order by wm.message_id limit 1)`,
};

export type WidgetSessionRow = { sessionId: number; origin: string; startedAt: Date; lastMessageAt: Date | null; messagesCount: number; preview: string | null };
export type WidgetMessageRow = typeof widgetMessages.$inferSelect;

/** The widget's visitor conversations, newest first, 20 a page. */
export async function listWidgetSessions(options: { db: Db; actor: Actor; widgetId: number; page: number }): Promise<{ rows: WidgetSessionRow[]; total: number }> {
  const widget = await widgetPolicy.require(options.db, options.actor, options.widgetId);
  const [rows, [total]] = await Promise.all([
    options.db
      .select(sessionColumns)
      .from(widgetSessions)
      .where(eq(widgetSessions.widgetId, widget.widgetId))
      .orderBy(desc(widgetSessions.startedAt), desc(widgetSessions.sessionId))
      .limit(WIDGET_SESSIONS_PAGE_SIZE)
      .offset((options.page - 1) * WIDGET_SESSIONS_PAGE_SIZE),
    options.db.select({ total: count() }).from(widgetSessions).where(eq(widgetSessions.widgetId, widget.widgetId)),
  ]);
  return { rows, total: Number(total?.total ?? 0) };
}

/** One conversation with its messages in order (a session of another widget is a 404). */
export async function readWidgetSession(options: {
  db: Db;
  actor: Actor;
  widgetId: number;
  sessionId: number;
}): Promise<{ session: WidgetSessionRow; messages: WidgetMessageRow[] }> {
  const widget = await widgetPolicy.require(options.db, options.actor, options.widgetId);
  const [session] = await options.db
    .select(sessionColumns)
    .from(widgetSessions)
    .where(and(eq(widgetSessions.widgetId, widget.widgetId), eq(widgetSessions.sessionId, options.sessionId)))
    .limit(1);
  if (!session) throw notFound();
  const messages = await options.db
    .select()
    .from(widgetMessages)
    .where(eq(widgetMessages.sessionId, session.sessionId))
    .orderBy(asc(widgetMessages.messageId));
  return { session, messages };
}
