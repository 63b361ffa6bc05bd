ALTER TABLE "users" ADD COLUMN "words_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lifetime_value" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_lifetime_value_idx" ON "users" USING btree ("lifetime_value","user_id");--> statement-breakpoint
CREATE INDEX "users_words_used_idx" ON "users" USING btree ("words_used","user_id");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model functions or triggers): users.words_used and users.lifetime_value
-- are kept by these triggers on every write, whichever code path makes it (docs/decisions.md "Back-office at
-- scale"). The paid statuses match PAID_INVOICE_STATUSES and PAID_PURCHASE_STATUSES of
-- server/src/features/users/admin-service.ts: change both together.
CREATE FUNCTION pluma_customer_ltv(uid integer) RETURNS numeric LANGUAGE sql STABLE AS $$
  select (select coalesce(sum(i.total_payment), 0) from invoices i
          where i.user_id = uid and i.status in ('active', 'completed', 'success', 'succeeded', 'paid'))
       + (select coalesce(sum(p.total_payment), 0) from purchases p
          where p.user_id = uid and p.status in ('active', 'completed', 'cancelled') and not p.is_gift
            and not exists (select 1 from invoices i2 where i2.purchase_id = p.purchase_id))
$$;--> statement-breakpoint
CREATE FUNCTION pluma_refresh_lifetime_value() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An invoice changes its own customer's value and, through "no invoice stands for it", its purchase's owner's.
  IF TG_OP <> 'INSERT' THEN
    UPDATE users SET lifetime_value = pluma_customer_ltv(user_id)
    WHERE user_id = OLD.user_id
       OR (TG_TABLE_NAME = 'invoices' AND user_id = (SELECT p.user_id FROM purchases p WHERE p.purchase_id = OLD.purchase_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE users SET lifetime_value = pluma_customer_ltv(user_id)
    WHERE user_id = NEW.user_id
       OR (TG_TABLE_NAME = 'invoices' AND user_id = (SELECT p.user_id FROM purchases p WHERE p.purchase_id = NEW.purchase_id));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER purchases_lifetime_value AFTER INSERT OR DELETE OR UPDATE OF user_id, status, total_payment, is_gift ON purchases
  FOR EACH ROW EXECUTE FUNCTION pluma_refresh_lifetime_value();--> statement-breakpoint
CREATE TRIGGER invoices_lifetime_value AFTER INSERT OR DELETE OR UPDATE OF user_id, purchase_id, status, total_payment ON invoices
  FOR EACH ROW EXECUTE FUNCTION pluma_refresh_lifetime_value();--> statement-breakpoint
CREATE FUNCTION pluma_refresh_words_used() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A new charge adds to the sum (the common case, one row per answer); a change or removal recounts.
  IF TG_OP = 'INSERT' THEN
    IF NEW.words < 0 THEN UPDATE users SET words_used = words_used - NEW.words WHERE user_id = NEW.user_id; END IF;
    RETURN NULL;
  END IF;
  UPDATE users u SET words_used = (SELECT coalesce(-sum(l.words), 0) FROM credit_ledger l WHERE l.user_id = u.user_id AND l.words < 0)
  WHERE u.user_id = OLD.user_id OR (TG_OP = 'UPDATE' AND u.user_id = NEW.user_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credit_ledger_words_used AFTER INSERT OR DELETE OR UPDATE OF user_id, words ON credit_ledger
  FOR EACH ROW EXECUTE FUNCTION pluma_refresh_words_used();--> statement-breakpoint
-- Recomputes both figures for every customer in one pass: this migration's backfill, and bulk loads that
-- ran without triggers (bench/backoffice-scale.mjs).
CREATE FUNCTION pluma_backfill_customer_figures() RETURNS void LANGUAGE sql AS $$
  with used as (select user_id, -sum(words) as words from credit_ledger where words < 0 group by user_id),
  paid_invoices as (select user_id, sum(total_payment) as total from invoices
    where status in ('active', 'completed', 'success', 'succeeded', 'paid') and user_id is not null group by user_id),
  paid_purchases as (select p.user_id, sum(p.total_payment) as total from purchases p
    where p.status in ('active', 'completed', 'cancelled') and not p.is_gift
      and not exists (select 1 from invoices i where i.purchase_id = p.purchase_id) group by p.user_id),
  figures as (select u.user_id, coalesce(used.words, 0)::int as words_used,
      coalesce(paid_invoices.total, 0) + coalesce(paid_purchases.total, 0) as lifetime_value
    from users u left join used using (user_id) left join paid_invoices using (user_id) left join paid_purchases using (user_id))
  update users u set words_used = f.words_used, lifetime_value = f.lifetime_value
  from figures f where f.user_id = u.user_id and (u.words_used <> f.words_used or u.lifetime_value <> f.lifetime_value)
$$;--> statement-breakpoint
SELECT pluma_backfill_customer_figures();
