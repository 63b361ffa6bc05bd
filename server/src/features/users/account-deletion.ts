// Deleting an account with what it owns, once the caller was authorized: the user's own deletion
// (service.ts deleteOwnAccount) or a customer's from the back office (admin-service.ts deleteCustomer).
import { ErrorIds } from '@pluma/common/errors';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { files, staff, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError } from '../../platform/http/errors';
import type { Log } from '../../platform/log';

/**
 * Deletes the account and, through the foreign-key cascades, everything it owns; then its stored files and
 * live sockets. The last staff admin is never deleted (409 with `lastAdminMessage`).
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
