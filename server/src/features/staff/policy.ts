// Who may see and change the back office's staff (spec part 1 §2 "Staff page", §6; docs/decisions.md
// "Staff rights"): staff admins only. For anyone else the staff list is empty and a staff record a 404.
import { STAFF_ACTIONS, type StaffAction } from '@pluma/common/staff';
import { sql } from 'drizzle-orm';
import { staff } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy } from '../../platform/policy/define-policy';

const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

/** A staff record's actions; 'add' is asked of the row a staff admin is about to create. */
export const staffPolicy = definePolicy<StaffAction, Pick<typeof staff.$inferSelect, 'role'>>({
  actions: STAFF_ACTIONS,
  table: staff,
  id: staff.staffId,
  visibleTo: (actor) => (isAdmin(actor) ? sql`true` : sql`false`),
  can: (actor) => isAdmin(actor),
});
