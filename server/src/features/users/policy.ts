// Who may do what with customers in the back office (docs/decisions.md "Staff rights"): staff (admins and
// managers) read every customer and get reset links (a manager's not for a staff account: recovery.ts);
// only admins create, edit, delete and log in as one. The services (admin-service.ts, service.ts lookups,
// recovery.ts createResetLink) authorize through these rules; the routes' staff gate stays the same, so a
// caller who is not staff is refused (403) before validation.
import { CUSTOMER_ACTIONS, type CustomerAction } from '@pluma/common/admin-users';
import { defineRules } from '../../platform/policy/define-policy';

/** `null`: the rules do not depend on the customer (a list, a lookup, or one being created). */
export const customerRules = defineRules<CustomerAction, null>({
  actions: CUSTOMER_ACTIONS,
  can(actor, action) {
    switch (action) {
      case 'read':
      case 'reset_link':
        return actor.staffRole === 'admin' || actor.staffRole === 'manager';
      case 'edit':
      case 'delete':
      case 'impersonate':
        return actor.staffRole === 'admin';
    }
  },
});
