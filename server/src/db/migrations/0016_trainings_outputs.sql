CREATE TABLE "trainings" (
	"training_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"avatar_id" integer NOT NULL,
	"name" text NOT NULL,
	"base_model" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file" text,
	"file_key" text,
	"examples" integer,
	"file_id" text,
	"provider_job_id" text,
	"fine_tuned_model" text,
	"selected" boolean DEFAULT false NOT NULL,
	"polling" boolean DEFAULT false NOT NULL,
	"error_code" text,
	"error_message" text,
	"deadline_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "output_messages" (
	"output_message_id" serial PRIMARY KEY NOT NULL,
	"output_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outputs" (
	"output_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"avatar_id" integer NOT NULL,
	"training_id" integer,
	"prompt" text NOT NULL,
	"content" text,
	"status" text DEFAULT 'done' NOT NULL,
	"liked" boolean,
	"model" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "output_messages" ADD CONSTRAINT "output_messages_output_id_outputs_output_id_fk" FOREIGN KEY ("output_id") REFERENCES "public"."outputs"("output_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outputs" ADD CONSTRAINT "outputs_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outputs" ADD CONSTRAINT "outputs_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outputs" ADD CONSTRAINT "outputs_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outputs" ADD CONSTRAINT "outputs_training_id_trainings_training_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("training_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trainings_user_org_updated_idx" ON "trainings" USING btree ("user_id","organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "trainings_avatar_idx" ON "trainings" USING btree ("avatar_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trainings_avatar_selected_unique" ON "trainings" USING btree ("avatar_id") WHERE "trainings"."selected";--> statement-breakpoint
CREATE INDEX "trainings_polling_idx" ON "trainings" USING btree ("training_id") WHERE "trainings"."polling";--> statement-breakpoint
CREATE INDEX "output_messages_output_idx" ON "output_messages" USING btree ("output_id","output_message_id");--> statement-breakpoint
CREATE INDEX "outputs_avatar_user_created_idx" ON "outputs" USING btree ("avatar_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "outputs_training_created_idx" ON "outputs" USING btree ("training_id","created_at");--> statement-breakpoint
CREATE INDEX "outputs_avatar_liked_idx" ON "outputs" USING btree ("avatar_id","user_id") WHERE "outputs"."liked";--> statement-breakpoint
CREATE INDEX "outputs_pending_idx" ON "outputs" USING btree ("updated_at") WHERE "outputs"."status" = 'pending';