CREATE TABLE "avatar_files" (
	"avatar_file_id" serial PRIMARY KEY NOT NULL,
	"avatar_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"editable" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "avatars" (
	"avatar_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"context" text DEFAULT '' NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"kind" text,
	"assistant_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_ai_keys" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'openai' NOT NULL,
	"key_sealed" text NOT NULL,
	"last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "avatar_files" ADD CONSTRAINT "avatar_files_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avatar_files" ADD CONSTRAINT "avatar_files_file_id_files_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("file_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avatars" ADD CONSTRAINT "avatars_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avatars" ADD CONSTRAINT "avatars_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ai_keys" ADD CONSTRAINT "user_ai_keys_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "avatar_files_avatar_file_unique" ON "avatar_files" USING btree ("avatar_id","file_id");--> statement-breakpoint
CREATE INDEX "avatar_files_file_idx" ON "avatar_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "avatars_user_org_updated_idx" ON "avatars" USING btree ("user_id","organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "avatars_public_updated_idx" ON "avatars" USING btree ("updated_at") WHERE "avatars"."public" and "avatars"."kind" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "avatars_user_kind_unique" ON "avatars" USING btree ("user_id","kind") WHERE "avatars"."kind" is not null;