CREATE TABLE "discounts" (
	"discount_id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"is_percent" boolean DEFAULT false NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"first_invoice_only" boolean DEFAULT false NOT NULL,
	"product_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discounts_amount_check" CHECK ("discounts"."amount" > 0 and (not "discounts"."is_percent" or "discounts"."amount" <= 100)),
	CONSTRAINT "discounts_redemptions_check" CHECK ("discounts"."redemptions" >= 0 and ("discounts"."max_redemptions" is null or "discounts"."max_redemptions" >= 1))
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_user_id_provider_pk" PRIMARY KEY("user_id","provider"),
	CONSTRAINT "payment_customers_provider_check" CHECK ("payment_customers"."provider" in ('stripe', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"payment_event_id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "payment_events_provider_check" CHECK ("payment_events"."provider" in ('stripe', 'paypal'))
);
--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_product_id_products_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_code_unique" ON "discounts" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "discounts_product_idx" ON "discounts" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "discounts_created_idx" ON "discounts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_customers_provider_customer_unique" ON "payment_customers" USING btree ("provider","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_unique" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_events_unprocessed_idx" ON "payment_events" USING btree ("received_at") WHERE "payment_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "products_org_lower_name_idx" ON "products" USING btree ("organization_id",lower("name"),"product_id");--> statement-breakpoint
CREATE INDEX "products_org_price_idx" ON "products" USING btree ("organization_id","price","product_id");--> statement-breakpoint
CREATE INDEX "purchases_processor_idx" ON "purchases" USING btree ("payment_processor_id");--> statement-breakpoint
CREATE INDEX "purchases_subscription_idx" ON "purchases" USING btree ("subscription_id");