// Substring search of the lists (issue 31 item 1: heavy users' lists flat with size). `lower(column) LIKE
// lower('%text%')` answers what `column ILIKE '%text%'` does (PostgreSQL's ILIKE lowers both sides with the
// same lower() on a multibyte database) but lowers the pattern once per query, not once per row: a heavy
// user's conversation search checks ~1,000 rows for its capped total, and the text filter was most of its
// time (PostgreSQL 0.8 → 0.5 ms, PGlite 2.1 → 1.4 ms). The trigram indexes are on lower(column) to match
// (migration 0041), so a rare word is still found through them.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { escapeLikePattern } from '../platform/http/like-pattern';

/** `lowered` (a generated lower(…) column, or a lower(…) expression) contains `text`, ignoring case. */
export function loweredContainsText(lowered: AnyPgColumn | SQL, text: string): SQL {
  return sql`${lowered} like lower(${`%${escapeLikePattern(text)}%`})`;
}

/** `column` contains `text`, ignoring case; % and _ in `text` match themselves. */
export function containsText(column: AnyPgColumn, text: string): SQL {
  return loweredContainsText(sql`lower(${column})`, text);
}
