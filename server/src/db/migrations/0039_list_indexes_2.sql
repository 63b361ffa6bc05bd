DROP INDEX "avatars_user_org_updated_idx";--> statement-breakpoint
DROP INDEX "avatars_public_updated_idx";--> statement-breakpoint
DROP INDEX "templates_public_created_idx";--> statement-breakpoint
DROP INDEX "templates_public_lower_name_idx";--> statement-breakpoint
DROP INDEX "documents_user_org_created_idx";--> statement-breakpoint
DROP INDEX "documents_user_org_updated_idx";--> statement-breakpoint
DROP INDEX "documents_user_org_lower_name_idx";--> statement-breakpoint
DROP INDEX "campaigns_org_created_idx";--> statement-breakpoint
DROP INDEX "campaigns_org_updated_idx";--> statement-breakpoint
DROP INDEX "campaigns_org_lower_name_idx";--> statement-breakpoint
CREATE INDEX "template_uses_user_used_idx" ON "template_uses" USING btree ("user_id","used_at","template_id");--> statement-breakpoint
CREATE INDEX "templates_user_org_updated_idx" ON "templates" USING btree ("user_id","organization_id","updated_at","template_id");--> statement-breakpoint
CREATE INDEX "templates_public_updated_idx" ON "templates" USING btree ("updated_at","template_id") WHERE "templates"."public";--> statement-breakpoint
CREATE INDEX "documents_plain_text_trgm_idx" ON "documents" USING gin ("plain_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "avatars_user_org_updated_idx" ON "avatars" USING btree ("user_id","organization_id","updated_at","avatar_id");--> statement-breakpoint
CREATE INDEX "avatars_public_updated_idx" ON "avatars" USING btree ("updated_at","avatar_id") WHERE "avatars"."public" and "avatars"."kind" is null;--> statement-breakpoint
CREATE INDEX "templates_public_created_idx" ON "templates" USING btree ("created_at","template_id") WHERE "templates"."public";--> statement-breakpoint
CREATE INDEX "templates_public_lower_name_idx" ON "templates" USING btree (lower("name"),"template_id") WHERE "templates"."public";--> statement-breakpoint
CREATE INDEX "documents_user_org_created_idx" ON "documents" USING btree ("user_id","organization_id","created_at","document_id");--> statement-breakpoint
CREATE INDEX "documents_user_org_updated_idx" ON "documents" USING btree ("user_id","organization_id","updated_at","document_id");--> statement-breakpoint
CREATE INDEX "documents_user_org_lower_name_idx" ON "documents" USING btree ("user_id","organization_id",lower("name"),"document_id");--> statement-breakpoint
CREATE INDEX "campaigns_org_created_idx" ON "campaigns" USING btree ("organization_id","created_at","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_org_updated_idx" ON "campaigns" USING btree ("organization_id","updated_at","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_org_lower_name_idx" ON "campaigns" USING btree ("organization_id",lower("name"),"campaign_id");