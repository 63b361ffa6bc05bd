// Who may do what in the back office's purchases and invoices (Pluma's staff rights, docs/decisions.md
// "Staff rights"): admins and managers read every record; only admins create and edit purchases and invoices,
// cancel subscriptions and send test purchases. The services authorize through these rules; the presenter
// sends their abilities so the web shows only what the server allows.
import { ADMIN_RECORD_ACTIONS, type AdminRecordAction } from '@pluma/common/admin-purchases';
import { defineRules } from '../../platform/policy/define-policy';
import { isSubscription } from '../purchases';
import type { AdminRecordRow } from './list-service';

/** `null`: no record yet (a list, or one being created). */
export const adminRecordRules = defineRules<AdminRecordAction, AdminRecordRow | null>({
  actions: ADMIN_RECORD_ACTIONS,
  can(actor, action, row) {
    switch (action) {
      case 'read':
        return actor.staffRole !== null;
      case 'edit':
        return actor.staffRole === 'admin';
      case 'cancel_subscription':
        // A live subscription (billed by a provider, or given by staff with a period) can be cancelled.
        return actor.staffRole === 'admin' && row !== null && row.type === 'purchase' && row.status === 'active' && isSubscription(row);
    }
  },
});
