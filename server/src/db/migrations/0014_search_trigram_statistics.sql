-- Hand-written (drizzle-kit does not model statistics objects): how common each trigram of the customers'
-- emails and full names is, as ANALYZE samples it (the most common elements of show_trgm(...), read from
-- pg_stats_ext_exprs). A substring search asks the pg_trgm indexes of 0011 for its rarest trigrams only and
-- rechecks the whole query on the few rows they give: a trigram shared by nearly every address ("com",
-- "gma") decodes a posting list of every customer (docs/decisions.md "Back-office at scale").
-- The expressions are users_email_trgm_idx's and users_full_name_trgm_idx's.
CREATE STATISTICS IF NOT EXISTS "users_email_trgm_stats" ON (show_trgm("email")) FROM "users";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "users_full_name_trgm_stats" ON (show_trgm("name" || ' ' || "last_name")) FROM "users";--> statement-breakpoint
ANALYZE "users";
