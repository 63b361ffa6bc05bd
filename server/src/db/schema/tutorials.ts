// Tutorials (spec part 2 §3 "Tutorial": tutorial_id, name, thumbnail, order, src; issue 15 item 5): videos
// staff admins list per language in their own order. Everyone with access reads them; no owner.
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { files } from './accounts';

export const tutorials = pgTable(
  'tutorials',
  {
    tutorialId: serial('tutorial_id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** 'en' | 'es' (spec part 2 §9). */
    language: text('language').notNull(),
    /** A YouTube or Vimeo link, or a video file's address (common/src/tutorials.ts tutorialPlayer). */
    src: text('src').notNull(),
    /** A thumbnail URL; an uploaded image (thumbnail_file_id) wins over it. */
    thumbnailUrl: text('thumbnail_url'),
    /** A public image uploaded with POST /files; deleting the file leaves the tutorial without it. */
    thumbnailFileId: integer('thumbnail_file_id').references(() => files.fileId, { onDelete: 'set null' }),
    /** The place in its language's list (ascending; ties by id). */
    order: integer('order').notNull().default(0),
    /** Which seeded tutorial this is (seed.ts), null for everything else. */
    seedKey: text('seed_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // GET /tutorials: one language, in order.
    index('tutorials_language_order_idx').on(t.language, t.order, t.tutorialId),
    index('tutorials_thumbnail_file_idx').on(t.thumbnailFileId),
    uniqueIndex('tutorials_seed_key_unique').on(t.seedKey).where(sql`${t.seedKey} is not null`),
  ],
);

/** Seed sets written once per install (seed.ts), so tutorials an admin deletes stay deleted. */
export const tutorialSeeds = pgTable('tutorial_seeds', {
  name: text('name').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
