// Words held before generating (docs/decisions.md, "Chat charging"): a generation first sets aside
// min(its cap, the spendable balance) words, where spendable = available_words - held_words; a send that
// can set aside nothing is refused (412 words_exhausted). The generation stops when it has written its hold,
// and its charge (credits/ledger.ts chargeCtes) releases the hold in the same statement, so the words
// written never exceed the balance however many sends run at once.
//
// Atomic in one statement, without a transaction (PGlite has one connection, messages/finalize.ts): the
// user's row is locked FOR UPDATE, which on PostgreSQL returns its newest version after waiting, and the
// held total lives on that row (users.held_words) — a sum over credit_holds would be read from the
// statement's snapshot, taken before the wait, and miss a hold committed meanwhile.
// Staff and unlimited balances (1000000, spec part 1 §9) hold nothing and are never refused here.
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { answerCapWords } from '@pluma/common/rules/answer-words';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { premiumRequired, type GenerationActor } from './access';

/**
 * A hold outlives any generation (GENERATION_TIMEOUT_MS is 10 minutes, and a crashed process's answers
 * are swept after 2 more); past it the sweep releases the words (messages/interrupted.ts).
 */
export const HOLD_TTL_MS = 15 * 60_000;

export interface HoldRequest {
  userId: number;
  /** Staff: never held, never refused. */
  exempt: boolean;
  /** Words one generation may write at most (its cap). */
  words: number;
}

/**
 * Every kind of generation that holds words: 'message' (id = the answer's message_id), 'enhance' (the
 * enhance_id), 'idea' (a topics or hashtags generation), 'super_fetch' (a Super Fetch output's hold_id),
 * 'document' (a document generation) and 'widget' (a widget visitor's answer). A new area adds its name here.
 */
export const HOLD_SOURCE_TYPES = ['message', 'enhance', 'idea', 'super_fetch', 'document', 'widget'] as const;
export type HoldSourceType = (typeof HOLD_SOURCE_TYPES)[number];

export interface HoldSource {
  /** Which generation holds the words; `id` is that generation's own id (see HOLD_SOURCE_TYPES). */
  type: HoldSourceType;
  id: string;
}

/** The hold of one generation capped at `maxTokens` tokens for `actor`. */
export function holdRequest(actor: GenerationActor & { user: { userId: number } }, maxTokens: number): HoldRequest {
  return { userId: actor.user.userId, exempt: actor.staffRole !== null, words: answerCapWords(maxTokens) };
}

type Executor = Tx | Db;

/**
 * The reservation as CTE bodies, in this order (each reads the ones before): hold_user, hold_size,
 * hold_ok, hold_row, hold_count. messages/save-prompt.ts puts them into its statement; reserveWords()
 * runs them alone. hold_ok has a row when the generation may start; hold_row returns the words held
 * (no row: nothing held — staff, unlimited, or this source holds words already).
 */
export const holdCtes = {
  holdUser: (p: { userId: SQL; exempt: SQL }) =>
    sql`select user_id, available_words, held_words from users where user_id = ${p.userId} and not ${p.exempt} for update`,
  holdSize: (p: { words: SQL }) =>
    sql`select user_id, least(${p.words}, available_words - held_words) as words from hold_user where available_words < ${sql.raw(String(UNLIMITED_WORDS))}`,
  holdOk: (p: { exempt: SQL }) =>
    sql`select true as ok where ${p.exempt} or exists (select 1 from hold_user where available_words >= ${sql.raw(String(UNLIMITED_WORDS))}) or exists (select 1 from hold_size where words > 0)`,
  holdRow: (p: { sourceType: SQL; sourceId: SQL }) =>
    sql`insert into credit_holds (user_id, words, source_type, source_id, expires_at) select user_id, words, ${p.sourceType}, ${p.sourceId}, now() + interval '${sql.raw(String(HOLD_TTL_MS))} milliseconds' from hold_size where words > 0 on conflict (source_type, source_id) do nothing returning user_id, words`,
  holdCount: () =>
    sql`update users set held_words = users.held_words + hold_row.words from hold_row where users.user_id = hold_row.user_id returning users.user_id`,
};

export interface Reservation {
  /** Words the generation may write; null = no limit (staff, unlimited balance). */
  limit: number | null;
}

type ReservationRow = { ok: boolean; wanted: number | null; held: number | null; id: string | number | null };

/** Runs the reservation alone; `ids` (optional) is a CTE before it, e.g. drawing the source's id. */
async function runReservation(db: Executor, request: HoldRequest, sourceType: string, sourceId: SQL, ids?: SQL): Promise<ReservationRow> {
  const exempt = sql`${request.exempt}::boolean`;
  const result = await db.execute(sql`
    with ${ids ? sql`ids as (${ids}),` : sql``}
    hold_user as (${holdCtes.holdUser({ userId: sql`${request.userId}::int`, exempt })}),
    hold_size as (${holdCtes.holdSize({ words: sql`${request.words}::int` })}),
    hold_ok as (${holdCtes.holdOk({ exempt })}),
    hold_row as (${holdCtes.holdRow({ sourceType: sql`${sourceType}::text`, sourceId })}),
    hold_count as (${holdCtes.holdCount()})
    select exists (select 1 from hold_ok) as ok, (select words from hold_size) as wanted, (select words from hold_row) as held,
      ${ids ? sql`(select id from ids)` : sql`null::int`} as id
  `);
  const [row] = (result as unknown as { rows: ReservationRow[] }).rows;
  if (!row?.ok) throw premiumRequired('words_exhausted');
  return row;
}

/** The reservation's outcome: null when something was to be held but this source holds words already. */
function reservationOf(row: ReservationRow): Reservation | null {
  if (row.held !== null) return { limit: Number(row.held) };
  if (row.wanted !== null) return null;
  return { limit: null };
}

/**
 * Holds words for one generation (a Continue, a prompt enhancement). Throws 412 words_exhausted when
 * nothing can be held; returns null when this source holds words already (a concurrent request for the
 * same answer).
 */
export async function reserveWords(db: Executor, request: HoldRequest, source: HoldSource): Promise<Reservation | null> {
  return reservationOf(await runReservation(db, request, source.type, sql`${source.id}::text`));
}

/**
 * Holds words for a new answer row and draws its message_id (the hold's source) in the same statement;
 * insert the answer with that id. Throws 412 words_exhausted when nothing can be held.
 */
export async function reserveNewAnswer(db: Executor, request: HoldRequest): Promise<Reservation & { messageId: number }> {
  const row = await runReservation(db, request, 'message', sql`(select id from ids)::text`, sql`select nextval(pg_get_serial_sequence('messages', 'message_id')) as id`);
  // A fresh id cannot hold words already.
  return { limit: reservationOf(row)?.limit ?? null, messageId: Number(row.id) };
}

/** Gives back the words held for `source` (a generation that did not start). */
export async function releaseHold(db: Executor, source: HoldSource): Promise<void> {
  await db.execute(sql`
    with gone as (delete from credit_holds where source_type = ${source.type} and source_id = ${source.id} returning user_id, words)
    update users set held_words = greatest(0, users.held_words - gone.words) from gone where users.user_id = gone.user_id
  `);
}

/** Releases the holds past their expiry (a generation that was never charged); returns how many. */
export async function releaseExpiredHolds(db: Executor): Promise<number> {
  const result = await db.execute(sql`
    with gone as (delete from credit_holds where expires_at <= now() returning user_id, words),
    per_user as (select user_id, sum(words)::int as words, count(*)::int as holds from gone group by user_id),
    released as (
      update users set held_words = greatest(0, users.held_words - per_user.words) from per_user
      where users.user_id = per_user.user_id returning users.user_id
    )
    select coalesce(sum(holds), 0)::int as holds from per_user
  `);
  const [row] = (result as unknown as { rows: { holds: number }[] }).rows;
  return Number(row?.holds ?? 0);
}
