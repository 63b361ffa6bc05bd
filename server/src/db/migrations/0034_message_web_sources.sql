ALTER TABLE "messages" ADD COLUMN "web_sources" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "web_search_failed" boolean DEFAULT false NOT NULL;