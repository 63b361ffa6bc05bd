ALTER TABLE "widget_sessions" ADD COLUMN "key_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Sessions open today belong to their widget's current key (they keep working until the next rotation).
UPDATE "widget_sessions" SET "key_version" = "widgets"."key_version" FROM "widgets" WHERE "widgets"."widget_id" = "widget_sessions"."widget_id";
