ALTER TABLE "products" ADD COLUMN "paypal_product_id" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "paypal_plan_id" text;