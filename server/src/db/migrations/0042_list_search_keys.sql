DROP INDEX "conversations_lower_name_trgm_idx";--> statement-breakpoint
DROP INDEX "conversations_lower_tags_trgm_idx";--> statement-breakpoint
DROP INDEX "conversations_tag_array_idx";--> statement-breakpoint
-- One ALTER (drizzle-kit wrote three): the table is rewritten once for the three stored columns.
ALTER TABLE "conversations"
	ADD COLUMN "name_lower" text GENERATED ALWAYS AS (lower(name)) STORED,
	ADD COLUMN "tags_lower" text GENERATED ALWAYS AS (lower(tags)) STORED,
	ADD COLUMN "tag_list" text[] GENERATED ALWAYS AS (string_to_array(lower(tags), ',')) STORED;--> statement-breakpoint
CREATE INDEX "conversations_name_lower_trgm_idx" ON "conversations" USING gin ("name_lower" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_tags_lower_trgm_idx" ON "conversations" USING gin ("tags_lower" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_tag_list_idx" ON "conversations" USING gin ("tag_list");--> statement-breakpoint
DROP INDEX "documents_user_org_lower_name_idx";--> statement-breakpoint
DROP INDEX "documents_lower_name_trgm_idx";--> statement-breakpoint
DROP INDEX "documents_org_lower_name_idx";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "name_lower" text GENERATED ALWAYS AS (lower(name)) STORED;--> statement-breakpoint
CREATE INDEX "documents_user_org_name_lower_idx" ON "documents" USING btree ("user_id","organization_id","name_lower","document_id");--> statement-breakpoint
CREATE INDEX "documents_name_lower_trgm_idx" ON "documents" USING gin ("name_lower" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_org_name_lower_idx" ON "documents" USING btree ("organization_id","name_lower","document_id");--> statement-breakpoint
-- Hand-written (drizzle-kit models no triggers): a campaign's resource link lives while its document or template
-- does, in the campaign's organization. Links to deleted ones (a user's deletion cascades to their documents)
-- or to ones moved out of the organization are removed here, so a campaign's resources are counted from its
-- links alone (campaigns/service.ts listCampaignResources, issue 31 item 1), not joined to every resource.
DELETE FROM "campaign_resources" cr USING "campaigns" c
	WHERE c."campaign_id" = cr."campaign_id" AND NOT EXISTS (
		SELECT 1 FROM "documents" d WHERE cr."type" = 'document' AND d."document_id" = cr."resource_id" AND d."organization_id" = c."organization_id"
		UNION ALL
		SELECT 1 FROM "templates" t WHERE cr."type" = 'template' AND t."template_id" = cr."resource_id" AND t."organization_id" = c."organization_id");--> statement-breakpoint
CREATE FUNCTION "campaign_resources_unlink"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'documents' THEN
		DELETE FROM "campaign_resources" WHERE "type" = 'document' AND "resource_id" = OLD."document_id";
	ELSE
		DELETE FROM "campaign_resources" WHERE "type" = 'template' AND "resource_id" = OLD."template_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "documents_campaign_unlink_deleted" AFTER DELETE ON "documents"
	FOR EACH ROW EXECUTE FUNCTION "campaign_resources_unlink"();--> statement-breakpoint
CREATE TRIGGER "documents_campaign_unlink_moved" AFTER UPDATE OF "organization_id" ON "documents"
	FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id") EXECUTE FUNCTION "campaign_resources_unlink"();--> statement-breakpoint
CREATE TRIGGER "templates_campaign_unlink_deleted" AFTER DELETE ON "templates"
	FOR EACH ROW EXECUTE FUNCTION "campaign_resources_unlink"();--> statement-breakpoint
CREATE TRIGGER "templates_campaign_unlink_moved" AFTER UPDATE OF "organization_id" ON "templates"
	FOR EACH ROW WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id") EXECUTE FUNCTION "campaign_resources_unlink"();
