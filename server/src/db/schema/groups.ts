// Groups of an organization's members (spec part 2 §3 Group: group_id, name, organization_id,
// group_users[]; features/groups). Deleting the organization deletes its groups; deleting a group or a
// user (or the user's membership, features/organizations) removes their group_users rows.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

export const groups = pgTable(
  'groups',
  {
    groupId: serial('group_id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.organizationId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The list is one organization's groups by name (GET /groups/organization/{id}).
  (t) => [index('groups_org_lower_name_idx').on(t.organizationId, sql`lower(${t.name})`, t.groupId)],
);

export const groupUsers = pgTable(
  'group_users',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.groupId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A Member sees the groups they are in; leaving an organization removes the user's rows there.
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_users_user_idx').on(t.userId)],
);
