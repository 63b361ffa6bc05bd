CREATE TABLE "group_users" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_users_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"group_id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "tagline" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "domain" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "thumbnail_file_id" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "welcome_video_file_id" integer;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "welcome_video_url" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "stripe_public" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "stripe_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "stripe_webhook_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "openai_api_key_sealed" text;--> statement-breakpoint
ALTER TABLE "group_users" ADD CONSTRAINT "group_users_group_id_groups_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("group_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_users" ADD CONSTRAINT "group_users_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_users_user_idx" ON "group_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "groups_org_lower_name_idx" ON "groups" USING btree ("organization_id",lower("name"),"group_id");--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_thumbnail_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_welcome_video_file_id_files_file_id_fk" FOREIGN KEY ("welcome_video_file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_slug_unique" ON "organizations" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_domain_unique" ON "organizations" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "organizations_lower_name_idx" ON "organizations" USING btree (lower("name"),"organization_id");--> statement-breakpoint
CREATE INDEX "purchases_org_created_idx" ON "purchases" USING btree ("organization_id","created_at") WHERE "purchases"."organization_id" is not null;
