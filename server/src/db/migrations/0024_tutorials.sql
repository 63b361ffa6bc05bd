CREATE TABLE "tutorial_seeds" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tutorials" (
	"tutorial_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"language" text NOT NULL,
	"src" text NOT NULL,
	"thumbnail_url" text,
	"thumbnail_file_id" integer,
	"order" integer DEFAULT 0 NOT NULL,
	"seed_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tutorials" ADD CONSTRAINT "tutorials_thumbnail_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tutorials_language_order_idx" ON "tutorials" USING btree ("language","order","tutorial_id");--> statement-breakpoint
CREATE INDEX "tutorials_thumbnail_file_idx" ON "tutorials" USING btree ("thumbnail_file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tutorials_seed_key_unique" ON "tutorials" USING btree ("seed_key") WHERE "tutorials"."seed_key" is not null;