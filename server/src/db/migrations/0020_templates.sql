CREATE TABLE "template_favorites" (
	"user_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_favorites_user_id_template_id_pk" PRIMARY KEY("user_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "template_seeds" (
	"name" text PRIMARY KEY NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_tag_links" (
	"template_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "template_tag_links_template_id_tag_id_pk" PRIMARY KEY("template_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "template_tags" (
	"tag_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_types" (
	"type_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_uses" (
	"user_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_uses_user_id_template_id_pk" PRIMARY KEY("user_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"template_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"organization_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"type_id" integer,
	"language" text DEFAULT 'en' NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"editable" boolean DEFAULT false NOT NULL,
	"show_prompt" boolean DEFAULT false NOT NULL,
	"seed_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_favorites" ADD CONSTRAINT "template_favorites_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_favorites" ADD CONSTRAINT "template_favorites_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tag_links" ADD CONSTRAINT "template_tag_links_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tag_links" ADD CONSTRAINT "template_tag_links_tag_id_template_tags_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."template_tags"("tag_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_uses" ADD CONSTRAINT "template_uses_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_uses" ADD CONSTRAINT "template_uses_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_type_id_template_types_type_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."template_types"("type_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_favorites_template_idx" ON "template_favorites" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "template_tag_links_tag_idx" ON "template_tag_links" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "template_tags_lower_name_unique" ON "template_tags" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "template_types_lower_name_unique" ON "template_types" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "template_uses_template_idx" ON "template_uses" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "templates_user_org_created_idx" ON "templates" USING btree ("user_id","organization_id","created_at");--> statement-breakpoint
CREATE INDEX "templates_public_created_idx" ON "templates" USING btree ("created_at") WHERE "templates"."public";--> statement-breakpoint
CREATE INDEX "templates_public_lower_name_idx" ON "templates" USING btree (lower("name")) WHERE "templates"."public";--> statement-breakpoint
CREATE INDEX "templates_updated_idx" ON "templates" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "templates_language_idx" ON "templates" USING btree ("language","created_at");--> statement-breakpoint
CREATE INDEX "templates_type_idx" ON "templates" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "templates_organization_idx" ON "templates" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_seed_key_unique" ON "templates" USING btree ("seed_key") WHERE "templates"."seed_key" is not null;