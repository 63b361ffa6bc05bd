// First admin (DESIGN.md §5–§6): at boot, when no staff admin exists, create one from ADMIN_EMAIL /
// ADMIN_PASSWORD, or admin@pluma.local with a random password printed once. Never "first signup
// becomes admin" (Open WebUI's bug). Idempotent and safe when several nodes boot at once.
import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { staff, users } from '../../db/schema';
import { hashPassword } from '../../platform/auth/passwords';
import { invalidateUser } from '../../platform/auth/invalidation';
import { revokeUserSessions } from '../../platform/auth/sessions';
import { findUserByEmail } from './queries';

export const DEFAULT_ADMIN_EMAIL = 'admin@pluma.local';
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function randomPassword(length = 16): string {
  return Array.from({ length }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');
}

export type SeedResult =
  | { created: false; reason: 'admin_exists' }
  | { created: true; userId: number; email: string; generatedPassword: boolean; promotedExistingUser: boolean };

function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '═'.repeat(width + 2);
  return [`╔${bar}╗`, ...lines.map((l) => `║ ${l.padEnd(width)} ║`), `╚${bar}╝`].join('\n');
}

async function adminExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ staffId: staff.staffId }).from(staff).where(eq(staff.role, 'admin')).limit(1);
  return Boolean(row);
}

export async function seedFirstAdmin({ ctx, print = (text) => console.log(text) }: { ctx: AppContext; print?: (text: string) => void }): Promise<SeedResult> {
  // Every boot after the first stops here, without paying for a password hash.
  if (await adminExists(ctx.db)) return { created: false, reason: 'admin_exists' };
  const email = (ctx.env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const password = ctx.env.ADMIN_PASSWORD ?? randomPassword();
  const passwordHash = await hashPassword(password);

  const result = await ctx.db.transaction(async (tx): Promise<SeedResult> => {
    const db = tx as unknown as Db;
    // One node at a time decides; the lock ends with the transaction.
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('pluma:first-admin'))`);
    if (await adminExists(db)) return { created: false, reason: 'admin_exists' };

    const existing = await findUserByEmail({ db, email });
    let userId: number;
    if (existing) {
      // The operator named this account. Its password is replaced (given or generated) and its
      // sessions ended, so whoever registered the address before cannot use the new admin rights.
      userId = existing.userId;
      await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.userId, userId));
      await revokeUserSessions(db, userId);
      await db.delete(staff).where(eq(staff.userId, userId));
    } else {
      const [user] = await db.insert(users).values({ name: 'Admin', lastName: '', email, passwordHash }).returning({ userId: users.userId });
      userId = user.userId;
    }
    await db.insert(staff).values({ userId, role: 'admin' });
    return { created: true, userId, email, generatedPassword: !ctx.env.ADMIN_PASSWORD, promotedExistingUser: Boolean(existing) };
  });

  if (result.created) {
    // The staff role (and, for a promoted account, the password) changed after the transaction above.
    invalidateUser(result.userId);
    const lines = ['Pluma: first admin account created', '', `  email:    ${result.email}`];
    if (result.generatedPassword) {
      lines.push(`  password: ${password}`, '', 'This password is shown only once. Sign in and change it,', 'or set ADMIN_EMAIL / ADMIN_PASSWORD before the first start.');
    } else {
      lines.push('  password: (from ADMIN_PASSWORD)');
    }
    print(boxed(lines));
  }
  return result;
}
