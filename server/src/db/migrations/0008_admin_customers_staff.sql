ALTER TABLE "sessions" ADD COLUMN "impersonated_by" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonated_by_users_user_id_fk" FOREIGN KEY ("impersonated_by") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_last_used_idx" ON "users" USING btree ("last_used_at");