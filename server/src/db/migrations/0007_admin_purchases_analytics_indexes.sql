CREATE INDEX "invoices_created_idx" ON "invoices" USING btree ("created_at","invoice_id");--> statement-breakpoint
CREATE INDEX "purchases_created_idx" ON "purchases" USING btree ("created_at","purchase_id");--> statement-breakpoint
CREATE INDEX "purchases_cancelled_idx" ON "purchases" USING btree ("cancelled_at") WHERE "purchases"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "credit_ledger_type_created_idx" ON "credit_ledger" USING btree ("source_type","created_at");