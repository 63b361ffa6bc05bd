CREATE TABLE "web_searches" (
	"web_search_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"message_id" integer,
	"provider" text NOT NULL,
	"key_scope" text DEFAULT 'app' NOT NULL,
	"pages_read" integer DEFAULT 0 NOT NULL,
	"failed" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "web_search_provider" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "web_search_url" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "web_search_api_key_sealed" text;--> statement-breakpoint
ALTER TABLE "web_searches" ADD CONSTRAINT "web_searches_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_searches" ADD CONSTRAINT "web_searches_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "web_searches_created_idx" ON "web_searches" USING btree ("created_at");