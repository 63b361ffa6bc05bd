// Whose purchases and invoices a customer sees (DESIGN.md §7): their own, in the request's context —
// Personal: organization_id IS NULL; inside an organization: that organization's. Anything else is a 404.
import { ACCESS_GRANT_ACTIONS, type AccessGrantAction } from '@pluma/common/purchases';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { invoices, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { defineRules } from '../../platform/policy/define-policy';

export function ownPurchasesOf(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const organization = actor.organization ? eq(purchases.organizationId, actor.organization.organizationId) : isNull(purchases.organizationId);
  return and(eq(purchases.userId, actor.user.userId), organization) as SQL;
}

/** Own invoices: the user's, of a purchase in the request's context (an invoice without a purchase is Personal). */
export function ownInvoicesOf(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const organization = actor.organization ? eq(purchases.organizationId, actor.organization.organizationId) : isNull(purchases.organizationId);
  return and(eq(invoices.userId, actor.user.userId), organization) as SQL;
}

/** Staff's access grants on a customer's purchases: managers give and extend access, admins revoke it. */
export const accessGrantRules = defineRules<AccessGrantAction, null>({
  actions: ACCESS_GRANT_ACTIONS,
  can: (actor, action) => (action === 'revoke' ? actor.staffRole === 'admin' : actor.staffRole !== null),
});
