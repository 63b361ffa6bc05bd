DROP INDEX "messages_conversation_id_idx";--> statement-breakpoint
CREATE INDEX "messages_conversation_user_idx" ON "messages" USING btree ("conversation_id","user_id","message_id");