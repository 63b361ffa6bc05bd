CREATE TABLE "idea_requests" (
	"idea_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"message_type_id" smallint NOT NULL,
	"subject" text NOT NULL,
	"language" text NOT NULL,
	"count" smallint NOT NULL,
	"items" jsonb NOT NULL,
	"avatar_id" integer,
	"words" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idea_requests" ADD CONSTRAINT "idea_requests_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idea_requests" ADD CONSTRAINT "idea_requests_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idea_requests" ADD CONSTRAINT "idea_requests_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idea_requests_user_type_created_idx" ON "idea_requests" USING btree ("user_id","message_type_id","organization_id","created_at");