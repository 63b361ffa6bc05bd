// The exact JSON of the staff calls (common/src/staff.ts); staff.test.ts pins the keys.
import type { StaffRecord } from '@pluma/common/staff';
import type { StaffRow } from './service';

export function presentStaff(row: StaffRow): StaffRecord {
  return {
    staff_id: row.staffId,
    role: row.role === 'admin' ? 'admin' : 'manager',
    user: { user_id: row.userId, name: row.name, last_name: row.lastName, email: row.email },
    createdAt: row.createdAt.toISOString(),
  };
}
