// The user's own account: read, profile update, deletion; staff lookups by email and phone.
// Services follow DESIGN.md §7: `verbNoun({ actor, db, ... })` (or `{ ctx, actor, ... }` when they need the
// app's services), framework-free; routes validate → authenticate → authorize → call → present.
import { ErrorIds } from '@pluma/common/errors';
import type { CurrentUser, UpdateProfileRequest } from '@pluma/common/users';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { files, staff, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { needsTouch, TOUCH_INTERVAL_MS } from '../../platform/auth/sessions';
import { AppError, notFound } from '../../platform/http/errors';
import type { Log } from '../../platform/log';
import { accessFromRows, loadAccessRows } from './access';
import { phoneLookupCandidates } from './phone';
import { presentCurrentUser, type CurrentUserRows } from './present';

type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db, userId: number): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.userId, userId)).limit(1);
  return user ?? null;
}

/** Emails are compared lowercased and trimmed (spec part 1 §5); uses the lower(email) unique index. */
export async function findUserByEmail({ db, email }: { db: Db; email: string }): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return user ?? null;
}

export async function findUserByPhone(db: Db, phone: string): Promise<UserRow | null> {
  const candidates = phoneLookupCandidates(phone);
  if (candidates.length === 0) return null;
  const [user] = await db.select().from(users).where(inArray(users.phone, candidates)).orderBy(users.userId).limit(1);
  return user ?? null;
}

/** The rows of the current-user view (spec part 1 §3), read in one query; 404 if the user no longer exists. */
export async function readCurrentUser({ db, userId }: { db: Db; userId: number }): Promise<CurrentUserRows> {
  const rows = await loadAccessRows(db, userId);
  if (rows.length === 0) throw notFound();
  return { user: rows[0].user, access: accessFromRows(rows), picture: rows[0].file };
}

/** The current-user view of a user id (the auth feature answers sign-in and sign-up with it). */
export async function loadCurrentUser({ db, userId }: { db: Db; userId: number }): Promise<CurrentUser> {
  return presentCurrentUser(await readCurrentUser({ db, userId }));
}

/**
 * GET /api/users: notes the visit (touchLastUsed) and returns the current-user view, reused from the auth
 * cache for a few seconds. The cache keeps the presented view (platform/auth/auth-cache.ts), so this one
 * service returns it rather than rows. Every write that changes it calls invalidateUser; the view also ends
 * when the purchase it shows expires.
 */
export async function getCurrentUser({ ctx, actor }: { ctx: Pick<AppContext, 'db' | 'services'>; actor: Actor }): Promise<CurrentUser> {
  await touchLastUsed({ ctx, actor });
  const userId = actor.user.userId;
  const cache = ctx.services.authCache;
  const now = Date.now();
  const cached = cache?.view(userId, now);
  if (cached) return cached;
  const ticket = cache?.ticket(now);
  const view = await loadCurrentUser({ db: ctx.db, userId });
  if (cache && ticket) cache.storeView(userId, view, view.purchase ? Date.parse(view.purchase.expires_at) : Number.POSITIVE_INFINITY, ticket);
  return view;
}

/**
 * Writes users.last_used_at at most once a minute (GET /api/users runs on every navigation), judged from
 * the actor's value already in hand, so a fresh one costs no query. The condition is repeated in SQL, so
 * a node whose cached actor is behind does not write it again.
 */
export async function touchLastUsed({ ctx, actor, now = new Date() }: { ctx: Pick<AppContext, 'db' | 'services'>; actor: Actor; now?: Date }) {
  if (!needsTouch(actor.user.lastUsedAt, now.getTime())) return;
  ctx.services.authCache?.userTouched(actor.user.userId, now);
  await ctx.db
    .update(users)
    .set({ lastUsedAt: now })
    .where(and(eq(users.userId, actor.user.userId), or(isNull(users.lastUsedAt), lt(users.lastUsedAt, new Date(now.getTime() - TOUCH_INTERVAL_MS)))));
}

/** PUT /api/users: the actor's own profile; returns the rows of the updated view. */
export async function updateProfile({ actor, db, changes }: { actor: Actor; db: Db; changes: UpdateProfileRequest }): Promise<CurrentUserRows> {
  const userId = actor.user.userId;
  if (changes.file_id != null) {
    // The picture must be one of the user's own files; anyone else's is "not found".
    const [file] = await db
      .select({ fileId: files.fileId })
      .from(files)
      .where(and(eq(files.fileId, changes.file_id), eq(files.userId, userId)))
      .limit(1);
    if (!file) throw new AppError(404, ErrorIds.notFound, 'file_not_found');
  }
  const set: Partial<typeof users.$inferInsert> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.last_name !== undefined) set.lastName = changes.last_name;
  if (changes.phone !== undefined) set.phone = changes.phone ? changes.phone : null;
  if (changes.company !== undefined) set.company = changes.company || null;
  if (changes.lang !== undefined) set.lang = changes.lang;
  if (changes.dark_mode !== undefined) set.darkMode = changes.dark_mode;
  if (changes.birthday !== undefined) set.birthday = changes.birthday;
  if (changes.instagram !== undefined) set.instagram = changes.instagram || null;
  if (changes.file_id !== undefined) set.fileId = changes.file_id;
  if (Object.keys(set).length > 0) {
    await db
      .update(users)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(users.userId, userId));
    invalidateUser(userId);
  }
  return readCurrentUser({ db, userId });
}

/**
 * DELETE /api/users: deletes the actor's account and, through the foreign-key cascades, everything they
 * own; then their stored files and live sockets. The last staff admin cannot delete themselves (the
 * product would have none).
 */
export async function deleteOwnAccount({ ctx, actor, log }: { ctx: AppContext; actor: Actor; log: Pick<Log, 'warn'> }): Promise<void> {
  await deleteAccount({ ctx, userId: actor.user.userId, log, lastAdminMessage: 'last_admin' });
}

/**
 * Deletes an account (own, or a customer's from the back office: admin-service.ts) with what it owns, its
 * stored files and live sockets; the last staff admin is never deleted (409 with `lastAdminMessage`).
 */
export async function deleteAccount(options: { ctx: AppContext; userId: number; log: Pick<Log, 'warn'>; lastAdminMessage: 'last_admin' | 'last_admin_staff' }): Promise<void> {
  const { ctx, userId, log } = options;
  const storageKeys = await ctx.db.transaction(async (tx) => {
    const [me] = await tx.select({ role: staff.role }).from(staff).where(eq(staff.userId, userId)).for('update');
    if (me?.role === 'admin') {
      // Locking every admin row serializes concurrent deletions of the last two admins.
      const admins = await tx.select({ staffId: staff.staffId }).from(staff).where(eq(staff.role, 'admin')).for('update');
      if (admins.length <= 1) throw new AppError(409, ErrorIds.conflict, options.lastAdminMessage);
    }
    const owned = await tx.select({ storageKey: files.storageKey }).from(files).where(eq(files.userId, userId));
    await tx.delete(users).where(eq(users.userId, userId));
    return owned.map((f) => f.storageKey);
  });
  // The sessions went with the user (cascade); cached actors of them must go too.
  invalidateUser(userId);
  const storage = ctx.services.storage;
  if (storage) {
    const results = await Promise.allSettled(storageKeys.map((key) => storage.delete(key)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    // The rows are gone either way; a leftover object is only reported, never blocks the deletion.
    if (failed > 0) log.warn({ userId, failed }, 'stored files of a deleted user could not be removed');
  }
  ctx.services.realtime?.disconnectUser(userId);
}

/** GET /api/users/email (staff; the route checks the role): the account with this email, or 404. */
export async function lookupUserByEmail({ db, email }: { db: Db; email: string }): Promise<UserRow> {
  const user = await findUserByEmail({ db, email });
  if (!user) throw notFound();
  return user;
}

/** GET /api/users/phone (staff): the account with this number in any spelling, or 404. */
export async function lookupUserByPhone({ db, phone }: { db: Db; phone: string }): Promise<UserRow> {
  const user = await findUserByPhone(db, phone);
  // spec part 1 §8: "We're sorry, we couldn't find an account with that number."
  if (!user) throw new AppError(404, ErrorIds.notFound, 'phone_not_found');
  return user;
}
