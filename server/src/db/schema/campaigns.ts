// Campaigns (spec part 2 §3 Campaign, Campaign resource link; features/campaigns): an organization's bundles
// of documents and templates, shared with users and groups of that organization. Deleting the organization,
// the campaign, a user or a group removes their rows here; a removed document or template leaves a link
// that nothing shows (the resource query joins the live row), and is cleaned when the campaign goes.
import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users, files } from './accounts';
import { groups } from './groups';

export const campaignResourceType = pgEnum('campaign_resource_type', ['document', 'template']);

export const campaigns = pgTable(
  'campaigns',
  {
    campaignId: serial('campaign_id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.organizationId, { onDelete: 'cascade' }),
    /** The owner (spec §3 `user_id`); null once their account is gone (the campaign stays the organization's). */
    userId: integer('user_id').references(() => users.userId, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    thumbnailFileId: integer('thumbnail_file_id').references(() => files.fileId, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The list is one organization's campaigns in one of the four sorts (spec §9).
    // The id breaks ties as the sorts and the page cursors do (issue 31 item 1).
    index('campaigns_org_created_idx').on(t.organizationId, t.createdAt, t.campaignId),
    index('campaigns_org_updated_idx').on(t.organizationId, t.updatedAt, t.campaignId),
    index('campaigns_org_lower_name_idx').on(t.organizationId, sql`lower(${t.name})`, t.campaignId),
    // Search by name (lower(…) LIKE '%q%', db/contains-text.ts), issue 31 item 1.
    index('campaigns_lower_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // A Manager's own campaigns.
    index('campaigns_user_idx').on(t.userId),
  ],
);

/** Campaign resource link (spec §3: resource_id, campaign_id, type document|template). */
export const campaignResources = pgTable(
  'campaign_resources',
  {
    campaignResourceId: serial('campaign_resource_id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.campaignId, { onDelete: 'cascade' }),
    resourceId: integer('resource_id').notNull(),
    type: campaignResourceType('type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_resources_unique_idx').on(t.campaignId, t.type, t.resourceId),
    // "Which campaigns hold this document" (the campaign document page, DELETE of a resource).
    index('campaign_resources_resource_idx').on(t.type, t.resourceId),
  ],
);

/** Access granted to one user (spec §3 campaign_users (user_id); §6 "granted to them"). */
export const campaignUsers = pgTable(
  'campaign_users',
  {
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.campaignId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index('campaign_users_user_idx').on(t.userId)],
);

/** Access granted to a group: every user of the group (spec §3 campaign_groups (group_id)). */
export const campaignGroups = pgTable(
  'campaign_groups',
  {
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.campaignId, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.groupId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.groupId] }), index('campaign_groups_group_idx').on(t.groupId)],
);
