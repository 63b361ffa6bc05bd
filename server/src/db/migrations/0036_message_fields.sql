ALTER TABLE "messages" ADD COLUMN "save_on_conversation" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "delete_user_msg" boolean DEFAULT false NOT NULL;