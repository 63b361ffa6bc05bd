CREATE TYPE "public"."campaign_resource_type" AS ENUM('document', 'template');--> statement-breakpoint
CREATE TABLE "campaign_groups" (
	"campaign_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_groups_campaign_id_group_id_pk" PRIMARY KEY("campaign_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_resources" (
	"campaign_resource_id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"resource_id" integer NOT NULL,
	"type" "campaign_resource_type" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_users" (
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_users_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"campaign_id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"thumbnail_file_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_groups" ADD CONSTRAINT "campaign_groups_campaign_id_campaigns_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("campaign_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_groups" ADD CONSTRAINT "campaign_groups_group_id_groups_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("group_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_resources" ADD CONSTRAINT "campaign_resources_campaign_id_campaigns_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("campaign_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_users" ADD CONSTRAINT "campaign_users_campaign_id_campaigns_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("campaign_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_users" ADD CONSTRAINT "campaign_users_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_thumbnail_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_groups_group_idx" ON "campaign_groups" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_resources_unique_idx" ON "campaign_resources" USING btree ("campaign_id","type","resource_id");--> statement-breakpoint
CREATE INDEX "campaign_resources_resource_idx" ON "campaign_resources" USING btree ("type","resource_id");--> statement-breakpoint
CREATE INDEX "campaign_users_user_idx" ON "campaign_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campaigns_org_created_idx" ON "campaigns" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_org_updated_idx" ON "campaigns" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "campaigns_org_lower_name_idx" ON "campaigns" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "campaigns_user_idx" ON "campaigns" USING btree ("user_id");