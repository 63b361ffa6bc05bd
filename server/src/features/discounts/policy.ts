// Who manages discount codes (docs/decisions.md "Staff rights"): staff managers list them, admins create,
// change and delete them. Buyers only ever look one code up at checkout (lookupDiscount, requireUsableDiscount).
import { DISCOUNT_ADMIN_ACTIONS, type DiscountAdminAction } from '@pluma/common/discounts';
import { defineRules } from '../../platform/policy/define-policy';

export const discountAdminRules = defineRules<DiscountAdminAction, null>({
  actions: DISCOUNT_ADMIN_ACTIONS,
  can: (actor, action) => (action === 'list' ? actor.staffRole !== null : actor.staffRole === 'admin'),
});
