CREATE TABLE "widget_messages" (
	"message_id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'done' NOT NULL,
	"error_code" text,
	"words" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_sessions" (
	"session_id" serial PRIMARY KEY NOT NULL,
	"widget_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"origin" text NOT NULL,
	"ip_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone,
	"messages_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"widget_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"avatar_id" integer NOT NULL,
	"name" text NOT NULL,
	"accent_color" text DEFAULT '#ff0000' NOT NULL,
	"image_file_id" integer,
	"allowed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"public_key" text NOT NULL,
	"key_version" integer DEFAULT 1 NOT NULL,
	"words_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_messages" ADD CONSTRAINT "widget_messages_session_id_widget_sessions_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."widget_sessions"("session_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_sessions" ADD CONSTRAINT "widget_sessions_widget_id_widgets_widget_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("widget_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_avatar_id_avatars_avatar_id_fk" FOREIGN KEY ("avatar_id") REFERENCES "public"."avatars"("avatar_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_image_file_id_files_file_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."files"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_messages_session_idx" ON "widget_messages" USING btree ("session_id","message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "widget_sessions_token_hash_unique" ON "widget_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "widget_sessions_widget_started_idx" ON "widget_sessions" USING btree ("widget_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "widgets_public_key_unique" ON "widgets" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "widgets_user_created_idx" ON "widgets" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "widgets_avatar_idx" ON "widgets" USING btree ("avatar_id");