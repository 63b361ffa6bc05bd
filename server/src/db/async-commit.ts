// Asynchronous commit for one statement (PostgreSQL's synchronous_commit = off, for this transaction only).
// A durable commit waits for the WAL to reach the disk (fdatasync): about 3 ms on the reference machine
// against 0.2 ms without the wait, and it sat on every prompt's path before the provider call
// (bench/chat-first-token.mjs). With it off, a crash of the database server (not of Pluma) can lose the
// last moments of such commits (at most 3 × wal_writer_delay, 600 ms by default) but never corrupts or
// half-applies one: the statement is all there or not at all. It is used only where losing that is
// harmless and the next durable commit covers it: the prompt with its pending answer, and the text saved
// while an answer streams. Charges, purchases and everything else commit durably (docs/decisions.md).
import { sql } from 'drizzle-orm';

/**
 * A CTE body that switches this statement's transaction to asynchronous commit. A plain select CTE runs
 * only when read, so the statement must read it (e.g. `exists (select 1 from async_commit)`).
 * `set_config(…, true)` is local to the transaction: the connection keeps its own setting afterwards.
 */
export const asyncCommitCte = sql`select set_config('synchronous_commit', 'off', true) as async_commit`;
