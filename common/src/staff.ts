// Back-office staff (spec part 1 §2 "Staff page", §3 Staff, §7 GET /staff/admin/all, POST/PUT /staff,
// DELETE /staff/{id}).
import { z } from 'zod';
import { id, text } from './schema-kit';
import { staffRoleSchema } from './users';

export const STAFF_PAGE_SIZE = 50;

export const staffListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** Part of an email, any case. */
  query: text().trim().max(200).optional(),
});
export type StaffListQuery = z.input<typeof staffListQuery>;

export const staffRecord = z.object({
  staff_id: z.number(),
  role: staffRoleSchema,
  user: z.object({ user_id: z.number(), name: z.string(), last_name: z.string(), email: z.string() }),
  createdAt: z.string(),
});
export type StaffRecord = z.infer<typeof staffRecord>;

export const staffListResponse = z.object({ staff: z.array(staffRecord), total: z.number() });
export type StaffListResponse = z.infer<typeof staffListResponse>;

/** An existing customer becomes staff; an unknown email gets an account and an invitation (reset) email. */
export const addStaffRequest = z.object({
  email: z.string({ error: 'invalid_email' }).trim().toLowerCase().pipe(z.email({ error: 'invalid_email' }).max(200, { error: 'invalid_email' })),
  role: staffRoleSchema,
});
export type AddStaffRequest = z.infer<typeof addStaffRequest>;

export const changeStaffRoleRequest = z.object({ staff_id: id(), role: staffRoleSchema });
export type ChangeStaffRoleRequest = z.infer<typeof changeStaffRoleRequest>;

/** What an actor may do with staff records (the back office's Staff page: admins only). */
export const STAFF_ACTIONS = ['add', 'changeRole', 'remove'] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];
