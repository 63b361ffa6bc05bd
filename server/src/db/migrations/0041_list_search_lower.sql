DROP INDEX "conversations_name_trgm_idx";--> statement-breakpoint
DROP INDEX "conversations_tags_trgm_idx";--> statement-breakpoint
DROP INDEX "avatars_user_org_updated_idx";--> statement-breakpoint
DROP INDEX "avatars_name_trgm_idx";--> statement-breakpoint
DROP INDEX "avatars_description_trgm_idx";--> statement-breakpoint
DROP INDEX "templates_name_trgm_idx";--> statement-breakpoint
DROP INDEX "templates_description_trgm_idx";--> statement-breakpoint
DROP INDEX "templates_organization_idx";--> statement-breakpoint
DROP INDEX "documents_name_trgm_idx";--> statement-breakpoint
DROP INDEX "documents_plain_text_trgm_idx";--> statement-breakpoint
DROP INDEX "documents_organization_idx";--> statement-breakpoint
DROP INDEX "campaigns_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "conversations_lower_name_trgm_idx" ON "conversations" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_lower_tags_trgm_idx" ON "conversations" USING gin (lower("tags") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "avatars_user_org_updated_kind_idx" ON "avatars" USING btree ("user_id","organization_id","updated_at","avatar_id","kind");--> statement-breakpoint
CREATE INDEX "avatars_lower_name_trgm_idx" ON "avatars" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "avatars_lower_description_trgm_idx" ON "avatars" USING gin (lower("description") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_lower_name_trgm_idx" ON "templates" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_lower_description_trgm_idx" ON "templates" USING gin (lower("description") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "templates_org_lower_name_idx" ON "templates" USING btree ("organization_id",lower("name"),"template_id");--> statement-breakpoint
CREATE INDEX "documents_lower_name_trgm_idx" ON "documents" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_lower_plain_text_trgm_idx" ON "documents" USING gin (lower("plain_text") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_org_lower_name_idx" ON "documents" USING btree ("organization_id",lower("name"),"document_id");--> statement-breakpoint
CREATE INDEX "campaigns_lower_name_trgm_idx" ON "campaigns" USING gin (lower("name") gin_trgm_ops);