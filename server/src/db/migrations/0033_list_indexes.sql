DROP INDEX "conversations_user_name_idx";--> statement-breakpoint
DROP INDEX "templates_user_org_created_idx";--> statement-breakpoint
CREATE INDEX "conversations_user_lower_name_idx" ON "conversations" USING btree ("user_id","archived",lower("name"),"conversation_id");--> statement-breakpoint
CREATE INDEX "conversations_name_trgm_idx" ON "conversations" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_tags_trgm_idx" ON "conversations" USING gin ("tags" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_tag_array_idx" ON "conversations" USING gin (string_to_array(lower("tags"), ','));--> statement-breakpoint
CREATE INDEX "avatars_name_trgm_idx" ON "avatars" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "avatars_description_trgm_idx" ON "avatars" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_user_org_lower_name_idx" ON "templates" USING btree ("user_id","organization_id",lower("name"),"template_id");--> statement-breakpoint
CREATE INDEX "templates_name_trgm_idx" ON "templates" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_description_trgm_idx" ON "templates" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "campaigns_name_trgm_idx" ON "campaigns" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_user_org_created_idx" ON "templates" USING btree ("user_id","organization_id","created_at","template_id");