CREATE TABLE "message_citations" (
	"citation_id" serial PRIMARY KEY NOT NULL,
	"message_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"ordinal" integer NOT NULL,
	"file_name" text NOT NULL,
	"page" integer,
	"heading" text,
	"text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_citations" ADD CONSTRAINT "message_citations_message_id_messages_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("message_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_citations" ADD CONSTRAINT "message_citations_file_id_files_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("file_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_citations_message_idx" ON "message_citations" USING btree ("message_id","ordinal");--> statement-breakpoint
CREATE INDEX "message_citations_file_idx" ON "message_citations" USING btree ("file_id");