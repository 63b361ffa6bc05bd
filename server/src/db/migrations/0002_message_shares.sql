CREATE TABLE "message_shares" (
	"share_id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "message_shares" ADD CONSTRAINT "message_shares_message_id_messages_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("message_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_shares" ADD CONSTRAINT "message_shares_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_shares_token_unique" ON "message_shares" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "message_shares_active_message_unique" ON "message_shares" USING btree ("message_id") WHERE "message_shares"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "messages_user_message_idx" ON "messages" USING btree ("user_id","message_id");--> statement-breakpoint
CREATE INDEX "messages_user_favorite_idx" ON "messages" USING btree ("user_id","message_id") WHERE "messages"."favorite";