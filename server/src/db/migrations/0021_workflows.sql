CREATE TABLE "user_workflow_templates" (
	"user_workflow_template_id" serial PRIMARY KEY NOT NULL,
	"user_workflow_id" integer NOT NULL,
	"position" integer NOT NULL,
	"template_id" integer NOT NULL,
	"conversation_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_workflows" (
	"user_workflow_id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer,
	"workflow_id" integer,
	"name" text NOT NULL,
	"values" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_templates" (
	"workflow_id" integer NOT NULL,
	"position" integer NOT NULL,
	"template_id" integer NOT NULL,
	CONSTRAINT "workflow_templates_workflow_id_position_pk" PRIMARY KEY("workflow_id","position")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"workflow_id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_workflow_templates" ADD CONSTRAINT "user_workflow_templates_user_workflow_id_user_workflows_user_workflow_id_fk" FOREIGN KEY ("user_workflow_id") REFERENCES "public"."user_workflows"("user_workflow_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_workflow_templates" ADD CONSTRAINT "user_workflow_templates_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_workflow_templates" ADD CONSTRAINT "user_workflow_templates_conversation_id_conversations_conversation_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("conversation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD CONSTRAINT "user_workflows_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD CONSTRAINT "user_workflows_organization_id_organizations_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD CONSTRAINT "user_workflows_workflow_id_workflows_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("workflow_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD CONSTRAINT "workflow_templates_workflow_id_workflows_workflow_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("workflow_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_templates" ADD CONSTRAINT "workflow_templates_template_id_templates_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("template_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_workflow_templates_position_unique" ON "user_workflow_templates" USING btree ("user_workflow_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "user_workflow_templates_conversation_unique" ON "user_workflow_templates" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "user_workflow_templates_template_idx" ON "user_workflow_templates" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "user_workflows_user_org_created_idx" ON "user_workflows" USING btree ("user_id","organization_id","created_at");--> statement-breakpoint
CREATE INDEX "workflow_templates_template_idx" ON "workflow_templates" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "workflows_created_idx" ON "workflows" USING btree ("created_at");