CREATE TABLE "credit_holds" (
	"hold_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"words" integer NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "held_words" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_holds_source_unique" ON "credit_holds" USING btree ("source_type","source_id");--> statement-breakpoint
CREATE INDEX "credit_holds_expires_idx" ON "credit_holds" USING btree ("expires_at");