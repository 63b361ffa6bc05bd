// Test data built through the same tables and helpers the app uses.
import type { OrganizationRole, StaffRole } from '@pluma/common/constants';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context';
import { discounts, organizations, organizationSso, products, purchases, ssoProviders, staff, userOrganizations, users } from '../db/schema';
import { hashPassword } from '../platform/auth/passwords';
import { createSession } from '../platform/auth/sessions';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;
// Hashing is slow on purpose; factories share one hash of the default password.
const DEFAULT_PASSWORD = 'secret-pass-1';
let defaultHash: Promise<string> | undefined;

export interface BuiltUser {
  user: typeof users.$inferSelect;
  token: string;
  password: string;
  /** Authorization header for app.inject. */
  auth: { authorization: string };
}

export async function buildUser(
  ctx: AppContext,
  overrides: Partial<typeof users.$inferInsert> & { password?: string; access?: boolean; staffRole?: StaffRole } = {},
): Promise<BuiltUser> {
  const { password = DEFAULT_PASSWORD, access = false, staffRole, ...fields } = overrides;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const passwordHash = password === DEFAULT_PASSWORD ? await defaultHash : await hashPassword(password);
  const [user] = await ctx.db
    .insert(users)
    .values({ name: 'Test', lastName: 'User', email: `user-${unique()}@example.com`, phone: '5551234567', passwordHash, ...fields })
    .returning();
  if (access) await grantAccess(ctx, user.userId);
  if (staffRole) await ctx.db.insert(staff).values({ userId: user.userId, role: staffRole });
  // A staff admin's session has passed a second factor, as the app requires of it (features/auth/two-factor);
  // the refusal without one is tested in two-factor.test.ts.
  const token = await createSession(ctx.db, user.userId, { secondFactor: staffRole === 'admin' });
  return { user, token, password, auth: { authorization: `Bearer ${token}` } };
}

/** An active 30-day purchase of a fresh product, giving the user access and `words` credits. */
export async function grantAccess(ctx: AppContext, userId: number, words = 10_000) {
  const [product] = await ctx.db
    .insert(products)
    .values({ name: `Plan ${unique()}`, description: 'Test plan', price: 10, wordAmount: words, expirationDays: 30 })
    .returning();
  const [purchase] = await ctx.db
    .insert(purchases)
    .values({ userId, productId: product.productId, status: 'active', amount: 10, totalPayment: 10, expirationDays: 30 })
    .returning();
  const { eq } = await import('drizzle-orm');
  await ctx.db.update(users).set({ availableWords: words }).where(eq(users.userId, userId));
  return { product, purchase };
}

const USER_TYPE_IDS: Record<OrganizationRole, number> = { admin: 1, manager: 2, member: 3 };

/** An organization with these members (spec part 2 §3: user_type_id 1 Admin, 2 Manager, 3 Member). */
export async function buildOrganization(ctx: AppContext, members: { user: BuiltUser; role: OrganizationRole }[] = []) {
  const [organization] = await ctx.db.insert(organizations).values({ name: `Org ${unique()}` }).returning();
  for (const { user, role } of members) {
    await ctx.db.insert(userOrganizations).values({ organizationId: organization.organizationId, userId: user.user.userId, userTypeId: USER_TYPE_IDS[role] });
  }
  return organization;
}

/**
 * An organization whose `domain` requires single sign-on through an enabled provider (features/auth/sso): the
 * rows the organization's SSO settings save, without a live issuer (the rule reads only these).
 */
export async function buildSsoDomain(ctx: AppContext, domain: string) {
  const [provider] = await ctx.db.insert(ssoProviders).values({ name: `IdP ${unique()}`, issuer: 'https://idp.invalid', clientId: 'pluma' }).returning();
  const [organization] = await ctx.db.insert(organizations).values({ name: `Org ${unique()}`, domain }).returning();
  await ctx.db.insert(organizationSso).values({ organizationId: organization.organizationId, providerId: provider.providerId, required: true });
  return { organization, provider };
}

/** A product on sale (the operator's unless `organizationId` is given); fields as in the table. */
export async function buildProduct(ctx: AppContext, overrides: Partial<typeof products.$inferInsert> = {}) {
  const [product] = await ctx.db
    .insert(products)
    .values({ name: `Plan ${unique()}`, description: 'Test plan', price: 10, wordAmount: 10_000, expirationDays: 30, ...overrides })
    .returning();
  return product;
}

/** A purchase of `productId` by `userId` (status active unless given); fields as in the table. */
export async function buildPurchase(ctx: AppContext, overrides: Partial<typeof purchases.$inferInsert> & { userId: number; productId: number }) {
  const [purchase] = await ctx.db
    .insert(purchases)
    .values({ status: 'active', amount: 10, totalPayment: 10, expirationDays: 30, ...overrides })
    .returning();
  return purchase;
}

/** A discount code (10 % off any of the operator's products unless overridden); fields as in the table. */
export async function buildDiscount(ctx: AppContext, overrides: Partial<typeof discounts.$inferInsert> = {}) {
  const [discount] = await ctx.db
    .insert(discounts)
    .values({ code: `CODE-${unique()}`, isPercent: true, amount: 10, ...overrides })
    .returning();
  return discount;
}

/** The cast of a staff API test: an admin (English and Spanish), a manager and a customer. */
export async function buildStaffCast(ctx: AppContext) {
  return {
    admin: await buildUser(ctx, { staffRole: 'admin' }),
    spanishAdmin: await buildUser(ctx, { staffRole: 'admin', lang: 'es' }),
    manager: await buildUser(ctx, { staffRole: 'manager' }),
    customer: await buildUser(ctx),
  };
}
