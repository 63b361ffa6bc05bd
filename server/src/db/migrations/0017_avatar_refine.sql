ALTER TABLE "avatars" ADD COLUMN "refine_status" text DEFAULT 'idle' NOT NULL;--> statement-breakpoint
ALTER TABLE "avatars" ADD COLUMN "refine_error_code" text;--> statement-breakpoint
ALTER TABLE "avatars" ADD COLUMN "refine_error_message" text;--> statement-breakpoint
ALTER TABLE "avatars" ADD COLUMN "refine_updated_at" timestamp with time zone;