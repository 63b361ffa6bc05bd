// Substring search (ILIKE '%…%') through the pg_trgm indexes of migration 0011, asking the index for the
// query's rarest trigrams only (docs/decisions.md "Back-office at scale"). A GIN scan for a pattern reads the
// posting list of every trigram in it: a query sharing trigrams with nearly every address ("customer4242@":
// "cus", "tom", "mer" … one entry per customer) decoded millions of entries to find one row (213 ms at
// 1,000,000 customers). Asking for its few rare trigrams reads short lists, and the whole query is then
// checked on the rows they give (0.4 ms). The result is the plain ILIKE's, row for row:
// - each probe is three ASCII letters or digits copied from the query as typed, so whatever matches the
//   query contains them (ILIKE lowers text and pattern alike, character by character; a window beside a
//   combining mark is skipped, as lowering there can depend on the mark);
// - the whole query is always checked, off the index (`|| ''`: the index scan would read every list again).
// How common a trigram is comes from ANALYZE (the statistics objects of migration 0014, read from
// pg_stats_ext_exprs): without them (never analyzed, or a database role that does not own the table) the
// search is the plain ILIKE.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** The statistics objects of migration 0014, named after the indexed expression they sample. */
export type TrigramStatistics = 'users_email_trgm_stats' | 'users_full_name_trgm_stats';

/** At most this many trigrams are asked of the index (each one more list to read). */
const MAX_PROBES = 4;
/**
 * A trigram up to this many times as common as the rarest one is asked too: its list costs about one entry
 * per row that has it, while every candidate row the probes leave costs a table read (tens of times more).
 */
const PROBE_SPREAD = 20;
/** A trigram in half the rows or more filters little for a whole list's reading: asked only when it is the rarest. */
const COMMON = 0.5;
/**
 * The probes are used only when the trigrams they leave out would have read at least this share of the table
 * (frequencies summed). Otherwise the plain ILIKE reads about as little, and is better planned: the probes'
 * conditions multiply into a tiny row estimate, and for a common name in a date range ("garcía", 1,700 of
 * the month's 34,000 customers) the planner then sorted all matches instead of walking the page's order.
 */
const MIN_SAVING = 0.5;

const WINDOW = /^[A-Za-z0-9]{3}$/;
const MARK = /\p{M}/u;

/** The query's three-character windows of ASCII letters and digits (as typed), once each regardless of case. */
export function trigramWindows(query: string): string[] {
  const chars = Array.from(query);
  const seen = new Set<string>();
  const windows: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) {
    const window = chars.slice(i, i + 3).join('');
    if (!WINDOW.test(window) || MARK.test(chars[i - 1] ?? '') || MARK.test(chars[i + 3] ?? '')) continue;
    const key = window.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    windows.push(window);
  }
  return windows;
}

/** How common trigrams are in one column: the sampled most common ones, and the floor under which the rest lie. */
export interface TrigramFrequencies {
  frequencies: Map<string, number>;
  floor: number;
}

/** The windows to ask the index for: the rarest, then those not far more common, at most MAX_PROBES; none when leaving the rest out saves little. */
export function rarestWindows(windows: string[], stats: TrigramFrequencies): string[] {
  const ranked = windows
    .map((window, order) => ({ window, order, frequency: stats.frequencies.get(window.toLowerCase()) ?? stats.floor }))
    .sort((a, b) => a.frequency - b.frequency || a.order - b.order);
  if (ranked.length === 0) return [];
  const limit = ranked[0].frequency * PROBE_SPREAD;
  const chosen = ranked.filter((r, i) => i === 0 || (r.frequency <= limit && r.frequency < COMMON)).slice(0, MAX_PROBES);
  const saving = ranked.filter((r) => !chosen.includes(r)).reduce((sum, r) => sum + r.frequency, 0);
  return saving >= MIN_SAVING ? chosen.map((r) => r.window) : [];
}


/**
 * The sampled frequencies of the given windows, per statistics object (absent: no statistics yet). One small
 * read of pg_stats_ext_exprs (its last three frequencies are the minimum, the maximum and the nulls').
 */
export async function trigramFrequencies(db: Db, names: TrigramStatistics[], windows: string[]): Promise<Map<TrigramStatistics, TrigramFrequencies>> {
  const found = new Map<TrigramStatistics, TrigramFrequencies>();
  if (names.length === 0 || windows.length === 0) return found;
  const wanted = windows.map((w) => w.toLowerCase()).join(',');
  const result = await db.execute(sql`
    select x.statistics_name as name,
      x.most_common_elem_freqs[cardinality(x.most_common_elem_freqs) - 2] as floor,
      (select json_object_agg(e.trigram, e.frequency)
         from unnest(x.most_common_elems::text::text[], x.most_common_elem_freqs) e(trigram, frequency)
         where e.trigram = any(string_to_array(${wanted}, ','))) as frequencies
    from pg_stats_ext_exprs x
    where x.schemaname = current_schema() and x.statistics_name in (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )}) and x.most_common_elems is not null`);
  for (const row of rowsOf(result)) {
    const floor = Number(row.floor);
    if (!Number.isFinite(floor)) continue;
    const raw = (typeof row.frequencies === 'string' ? JSON.parse(row.frequencies) : row.frequencies) as Record<string, number> | null;
    found.set(row.name as TrigramStatistics, { floor, frequencies: new Map(Object.entries(raw ?? {}).map(([k, v]) => [k, Number(v)])) });
  }
  return found;
}

/**
 * `column ilike pattern`, where `column` is the expression a trigram index holds: with probes, the index is
 * asked for them (each `%window%`) and the whole pattern is checked on what they give.
 */
export function trigramMatch(column: SQL, pattern: string, probes: string[]): SQL {
  if (probes.length === 0) return sql`${column} ilike ${pattern}`;
  const asked = probes.map((window) => sql`${column} ilike ${`%${window}%`}`);
  return sql`(${sql.join(asked, sql` and `)} and (${column} || '') ilike ${pattern})`;
}
