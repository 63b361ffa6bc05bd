CREATE TABLE "super_fetch_outputs" (
	"output_id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer NOT NULL,
	"content" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"liked" boolean,
	"error_code" text,
	"hold_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "super_fetch_runs" (
	"run_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"avatar_id" integer NOT NULL,
	"inputs" jsonb NOT NULL,
	"prompt" text NOT NULL,
	"feedback_input" text,
	"feedback_liked" boolean,
	"feedback_run_id" integer,
	"file_id" integer,
	"file_name" text,
	"file_text" text,
	"file_truncated" boolean DEFAULT false NOT NULL,
	"requested" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "super_fetch_outputs" ADD CONSTRAINT "super_fetch_outputs_run_id_super_fetch_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."super_fetch_runs"("run_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "super_fetch_outputs" ADD CONSTRAINT "super_fetch_outputs_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "super_fetch_runs" ADD CONSTRAINT "super_fetch_runs_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "super_fetch_runs" ADD CONSTRAINT "super_fetch_runs_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "super_fetch_runs" ADD CONSTRAINT "super_fetch_runs_file_id_files_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "super_fetch_outputs_run_idx" ON "super_fetch_outputs" USING btree ("run_id","position");--> statement-breakpoint
CREATE INDEX "super_fetch_runs_user_avatar_idx" ON "super_fetch_runs" USING btree ("user_id","avatar_id","run_id");