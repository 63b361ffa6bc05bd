// The text of the answers streaming in this process, saved together: one UPDATE every SAVE_INTERVAL_MS for
// all of them, instead of one per answer (issue 31 item 2). At 100 answers streaming, the per-answer saves were
// ~70 statements a second, each a socket write to PostgreSQL (or a hop to the PGlite thread): the largest
// single cost in the server's CPU profile (bench/chat-cpu.mjs). A reloaded tab reads text at most
// SAVE_INTERVAL_MS old however many stream. An answer with no new text since its last save is only touched
// (updated_at, the heartbeat the interrupted sweep reads) every GENERATION_HEARTBEAT_MS.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { asyncCommitCte } from '../../db/async-commit';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { SAVE_INTERVAL_MS } from '../../platform/ai/background-runs';
import { ACTIVE_STATUSES } from './finalize';
import { GENERATION_HEARTBEAT_MS } from './interrupted';

export interface StreamingAnswer {
  /** The answer's whole text so far ('' before its first token). */
  text: () => string;
  /** Its row is gone or no longer active (deleted, swept): the generation stops. */
  gone: () => void;
  /** Where a failed save is reported (the generation's log). */
  log: { error(details: object, message: string): void };
}

interface Tracked extends StreamingAnswer {
  savedText: string;
  savedAt: number;
}

class StreamingSaves {
  private readonly answers = new Map<number, Tracked>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  track(messageId: number, answer: StreamingAnswer): void {
    this.answers.set(messageId, { ...answer, savedText: '', savedAt: Date.now() });
    this.timer ??= setTimeout(() => this.tick(), SAVE_INTERVAL_MS).unref();
  }

  /** Stops saving the answer; resolves once no save of its text is in flight (its final save comes after). */
  async untrack(messageId: number): Promise<void> {
    this.answers.delete(messageId);
    await this.flushing;
  }

  private tick(): void {
    this.timer = null;
    // flush reports a failed save to each answer's log; nothing else can fail, but a rejection here would stop the ticks.
    this.flushing = this.flush().catch(() => undefined);
    void this.flushing.then(() => {
      if (this.answers.size > 0) this.timer ??= setTimeout(() => this.tick(), SAVE_INTERVAL_MS).unref();
    });
  }

  private async flush(): Promise<void> {
    const now = Date.now();
    const due: Array<{ id: number; content: string | null }> = [];
    const sent = new Map<number, Tracked>();
    for (const [id, answer] of this.answers) {
      const text = answer.text();
      const changed = text !== answer.savedText;
      if (!changed && now - answer.savedAt < GENERATION_HEARTBEAT_MS) continue;
      // null: only updated_at (the heartbeat); the content and status stay as they are.
      due.push({ id, content: changed && text ? text : null });
      sent.set(id, answer);
      answer.savedText = text;
      answer.savedAt = now;
    }
    if (due.length === 0) return;
    let saved: Set<number>;
    try {
      saved = await saveStreamingTexts(this.db, due);
    } catch {
      // One answer's value must not stop the others' saves: each is saved alone this time.
      saved = new Set();
      for (const one of due) {
        try {
          for (const id of await saveStreamingTexts(this.db, [one])) saved.add(id);
        } catch (err) {
          // It goes on streaming; the next tick tries its text again.
          const answer = sent.get(one.id)!;
          answer.savedText = '';
          answer.log.error({ err, messageId: one.id }, 'saving a streaming message failed');
          sent.delete(one.id);
        }
      }
    }
    for (const [id, answer] of sent) {
      // Still streaming here (not finished meanwhile) but not saved: its row is gone or no longer active.
      if (!saved.has(id) && this.answers.get(id) === answer) answer.gone();
    }
  }
}

/**
 * One statement for every due answer; the ids of the rows it saved. The text commits without waiting for the
 * disk (db/async-commit.ts); the final text and charge commit durably (finalize.ts). The values travel as one
 * JSON parameter, read the same way by PostgreSQL and PGlite.
 */
async function saveStreamingTexts(db: Db, due: Array<{ id: number; content: string | null }>): Promise<Set<number>> {
  const rows = await db.execute(sql`
    with async_commit as (${asyncCommitCte}),
      due as (select * from json_to_recordset(${JSON.stringify(due)}::json) as d(id integer, content text))
    update messages set
      content = coalesce(due.content, messages.content),
      status = case when due.content is null then messages.status else 'streaming' end,
      updated_at = now()
    from due
    where messages.message_id = due.id
      and messages.status in (${sql.join(ACTIVE_STATUSES.map((status) => sql`${status}`), sql`, `)})
      and exists (select 1 from async_commit)
    returning messages.message_id as id`);
  return new Set(rowsOf<{ id: number }>(rows).map((row) => Number(row.id)));
}

const perContext = new WeakMap<AppContext, StreamingSaves>();

/** The streaming answers of this app context (one per process; tests run several). */
export function streamingSaves(ctx: AppContext): StreamingSaves {
  let saves = perContext.get(ctx);
  if (!saves) perContext.set(ctx, (saves = new StreamingSaves(ctx.db)));
  return saves;
}
