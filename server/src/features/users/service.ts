// The user's own account: read, profile update, deletion; staff lookups by email and phone (customerRules).
// Services follow DESIGN.md §7: `verbNoun({ actor, db, ... })` (or `{ ctx, actor, ... }` when they need the
// app's services), framework-free; routes validate → authenticate → authorize → call → present.
import { ErrorIds } from '@pluma/common/errors';
import type { CurrentUser, UpdateProfileRequest } from '@pluma/common/users';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { files, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { needsTouch, TOUCH_INTERVAL_MS } from '../../platform/auth/sessions';
import { AppError, notFound } from '../../platform/http/errors';
import type { Log } from '../../platform/log';
import { deleteAccount } from './account-deletion';
import { customerRules } from './policy';
import type { CurrentUserRows } from './present';
import { findUserByEmail, findUserByPhone, impersonatorOf, loadCurrentUser, readCurrentUser } from './queries';

type UserRow = typeof users.$inferSelect;

/**
 * GET /api/users: returns the current-user view, reused from the auth
 * cache for a few seconds. The cache keeps the presented view (platform/auth/auth-cache.ts), so this one
 * service returns it rather than rows. Every write that changes it calls invalidateUser; the view also ends
 * when the purchase it shows expires. An impersonated session's view names the admin who opened it.
 */
export async function getCurrentUser({ ctx, actor }: { ctx: Pick<AppContext, 'db' | 'services'>; actor: Actor }): Promise<CurrentUser> {
  const userId = actor.user.userId;
  const cache = ctx.services.authCache;
  const now = Date.now();
  let view = cache?.view(userId, now);
  if (!view) {
    const ticket = cache?.ticket(now);
    view = await loadCurrentUser({ db: ctx.db, userId });
    if (cache && ticket) cache.storeView(userId, view, view.purchase ? Date.parse(view.purchase.expires_at) : Number.POSITIVE_INFINITY, ticket);
  }
  // The cached view is the user's own; the second factor and who impersonates belong to this session only.
  const own = { ...view, two_factor: { ...view.two_factor, verified: actor.secondFactor === true } };
  return actor.impersonatedBy ? { ...own, impersonated_by: await impersonatorOf({ db: ctx.db, userId: actor.impersonatedBy }) } : own;
}

/**
 * Notes a real use of the app (spec part 1 "Admin customers table": Last used, 'Not used yet' for unused
 * customers; issue 30 item 8): asking it for content — a chat message, a template or workflow step applied,
 * a regenerated or continued answer (POST /messages, messages/service.ts). Opening the app (GET /api/users,
 * which runs right after sign-up) is not a use. Writes users.last_used_at at most once a minute, judged from
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

/** GET /api/users/email (staff): the account with this email, or 404. */
export async function lookupUserByEmail({ actor, db, email }: { actor: Actor; db: Db; email: string }): Promise<UserRow> {
  customerRules.authorize(actor, 'read', null);
  const user = await findUserByEmail({ db, email });
  if (!user) throw notFound();
  return user;
}

/** GET /api/users/phone (staff): the account with this number in any spelling, or 404. */
export async function lookupUserByPhone({ actor, db, phone }: { actor: Actor; db: Db; phone: string }): Promise<UserRow> {
  customerRules.authorize(actor, 'read', null);
  const user = await findUserByPhone({ db, phone });
  // spec part 1 §8: "We're sorry, we couldn't find an account with that number."
  if (!user) throw new AppError(404, ErrorIds.notFound, 'phone_not_found');
  return user;
}
