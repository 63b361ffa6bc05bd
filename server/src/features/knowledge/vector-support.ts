// Whether this database keeps chunk vectors: migration 0013 creates knowledge_chunk_embeddings only where
// pgvector is available (PGlite always; a PostgreSQL server when the operator installed the extension).
// Looked up once per app context; without it retrieval is full-text only.
import type { AppContext } from '../../context';

const known = new WeakMap<AppContext, Promise<boolean>>();

export function hasVectorTable(ctx: AppContext): Promise<boolean> {
  let answer = known.get(ctx);
  if (!answer) {
    answer = ctx.database
      .executeSql(`SELECT to_regclass('knowledge_chunk_embeddings') IS NOT NULL AS present`, [])
      .then(({ rows }) => Boolean((rows[0] as { present?: boolean } | undefined)?.present));
    answer.catch(() => known.delete(ctx));
    known.set(ctx, answer);
  }
  return answer;
}

/** Tests: forget the answer (after dropping the table to see the full-text-only path). */
export function forgetVectorSupport(ctx: AppContext): void {
  known.delete(ctx);
}
