-- Hand-written (drizzle-kit models neither extensions nor functions and triggers): pg_trgm serves the
-- back office's substring searches (ilike '%…%') from GIN indexes; PGlite loads it too (db/pglite-worker.mjs).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "daily_invoice_figures" (
	"day" date NOT NULL,
	"payment_method_id" integer,
	"status" text NOT NULL,
	"invoices" integer DEFAULT 0 NOT NULL,
	"total" numeric(16, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_invoice_figures_key" UNIQUE NULLS NOT DISTINCT("day","payment_method_id","status")
);
--> statement-breakpoint
CREATE TABLE "daily_purchase_figures" (
	"day" date NOT NULL,
	"product_id" integer,
	"status" text NOT NULL,
	"purchases" integer DEFAULT 0 NOT NULL,
	"total" numeric(16, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_purchase_figures_key" UNIQUE NULLS NOT DISTINCT("day","product_id","status")
);
--> statement-breakpoint
CREATE TABLE "daily_signups" (
	"day" date PRIMARY KEY NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_created_at_idx";--> statement-breakpoint
CREATE INDEX "users_created_figures_idx" ON "users" USING btree ("created_at","user_id","lifetime_value","words_used","last_used_at");--> statement-breakpoint
CREATE INDEX "users_last_used_desc_idx" ON "users" USING btree ("last_used_at" DESC NULLS LAST,"user_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin (("name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchases_bought_created_idx" ON "purchases" USING btree ("created_at","user_id") WHERE "purchases"."status" in ('active', 'completed');--> statement-breakpoint
CREATE INDEX "purchases_cancelled_user_idx" ON "purchases" USING btree ("cancelled_at","user_id") WHERE "purchases"."status" = 'cancelled';--> statement-breakpoint
-- Hand-written: the per-day summaries (schema/daily-figures.ts) are kept by these triggers on every write,
-- whichever code path makes it, as users.lifetime_value is (0009; docs/decisions.md "Back-office at scale").
-- A change moves a row's count and total from its old key to its new one in one statement, the keys in
-- order (two transactions moving rows between the same keys lock them in the same order). Days are UTC.
CREATE FUNCTION pluma_count_signup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_signups AS f (day, signups)
  SELECT v.day, sum(v.n) FROM (
    SELECT (OLD.created_at AT TIME ZONE 'UTC')::date, -1 WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT (NEW.created_at AT TIME ZONE 'UTC')::date, 1 WHERE TG_OP <> 'DELETE'
  ) v(day, n)
  GROUP BY v.day ORDER BY v.day
  ON CONFLICT (day) DO UPDATE SET signups = f.signups + excluded.signups;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_daily_signups AFTER INSERT OR DELETE OR UPDATE OF created_at ON users
  FOR EACH ROW EXECUTE FUNCTION pluma_count_signup();--> statement-breakpoint
CREATE FUNCTION pluma_count_purchase() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_purchase_figures AS f (day, product_id, status, purchases, total)
  SELECT v.day, v.product_id, v.status, sum(v.n), sum(v.total) FROM (
    SELECT (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.product_id, OLD.status, -1, -OLD.total_payment WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.product_id, NEW.status, 1, NEW.total_payment WHERE TG_OP <> 'DELETE'
  ) v(day, product_id, status, n, total)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (day, product_id, status) DO UPDATE SET purchases = f.purchases + excluded.purchases, total = f.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER purchases_daily_figures AFTER INSERT OR DELETE OR UPDATE OF created_at, product_id, status, total_payment ON purchases
  FOR EACH ROW EXECUTE FUNCTION pluma_count_purchase();--> statement-breakpoint
CREATE FUNCTION pluma_count_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_invoice_figures AS f (day, payment_method_id, status, invoices, total)
  SELECT v.day, v.payment_method_id, v.status, sum(v.n), sum(v.total) FROM (
    SELECT (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.payment_method_id, OLD.status, -1, -OLD.total_payment WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.payment_method_id, NEW.status, 1, NEW.total_payment WHERE TG_OP <> 'DELETE'
  ) v(day, payment_method_id, status, n, total)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (day, payment_method_id, status) DO UPDATE SET invoices = f.invoices + excluded.invoices, total = f.total + excluded.total;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER invoices_daily_figures AFTER INSERT OR DELETE OR UPDATE OF created_at, payment_method_id, status, total_payment ON invoices
  FOR EACH ROW EXECUTE FUNCTION pluma_count_invoice();--> statement-breakpoint
-- Recomputes the three summaries from the tables: this migration's backfill, and bulk loads that ran
-- without triggers (bench/backoffice-scale.mjs).
CREATE FUNCTION pluma_backfill_daily_figures() RETURNS void LANGUAGE sql AS $$
  delete from daily_signups;
  delete from daily_purchase_figures;
  delete from daily_invoice_figures;
  insert into daily_signups (day, signups)
    select (created_at at time zone 'UTC')::date, count(*) from users group by 1;
  insert into daily_purchase_figures (day, product_id, status, purchases, total)
    select (created_at at time zone 'UTC')::date, product_id, status, count(*), sum(total_payment) from purchases group by 1, 2, 3;
  insert into daily_invoice_figures (day, payment_method_id, status, invoices, total)
    select (created_at at time zone 'UTC')::date, payment_method_id, status, count(*), sum(total_payment) from invoices group by 1, 2, 3;
$$;--> statement-breakpoint
SELECT pluma_backfill_daily_figures();
