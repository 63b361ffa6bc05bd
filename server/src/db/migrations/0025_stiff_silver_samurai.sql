CREATE TABLE "document_generations" (
	"generation_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"document_id" integer,
	"campaign_id" integer,
	"kind" text NOT NULL,
	"avatar_id" integer,
	"template_id" integer,
	"status" text DEFAULT 'streaming' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"error_code" text,
	"hold_id" text NOT NULL,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_document_id_documents_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_campaign_id_campaigns_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("campaign_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_generations" ADD CONSTRAINT "document_generations_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_generations_user_document_applied_idx" ON "document_generations" USING btree ("user_id","document_id","applied_at");