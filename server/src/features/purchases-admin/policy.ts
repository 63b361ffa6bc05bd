// Who may do what in the back office's purchases and invoices (Pluma's staff rights, docs/decisions.md
// "Staff rights"): admins and managers read every record; only admins edit purchases and invoices, cancel
// subscriptions and send test purchases. The routes enforce it (signedIn { staff }); the presenter sends
// these abilities so the web shows only what the server allows.
import type { Actor } from '../../platform/auth/actor';
import { isSubscription } from '../purchases';
import type { AdminRecordRow } from './list-service';

export function adminRowAbilities(actor: Pick<Actor, 'staffRole'>, row: AdminRecordRow) {
  const admin = actor.staffRole === 'admin';
  return {
    edit: admin,
    // A live subscription (billed by a provider, or given by staff with a period) can be cancelled.
    cancel_subscription: admin && row.type === 'purchase' && row.status === 'active' && isSubscription(row),
  };
}
