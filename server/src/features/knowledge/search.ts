// Retrieval (issue 13 item 3): full-text search in each file's language (accents folded) always, plus
// vector search when an embedding model is in force; the two rankings merged by reciprocal rank fusion,
// weak matches cut off, the top 4–6 passages kept. Or the whole text, when the files fit the budget.
import { and, asc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { files, knowledgeChunks, knowledgeFiles } from '../../db/schema';
import { textFromChunks, type KnowledgeLanguage } from '../ingestion';
import { embeddingConfig, embedTexts, vectorLiteral, type EmbeddingConfig } from './embeddings';
import { languageOf, queueFileIndexing } from './indexing';
import { rowsOf } from '../../db/rows';

export interface Passage {
  chunk_id: number;
  file_id: number;
  page: number | null;
  heading: string | null;
  text: string;
  /** Fused score (reciprocal rank fusion of the full-text and vector rankings); higher is better. */
  score: number;
}

export const DEFAULT_PASSAGES = 5;
export const MAX_PASSAGES = 6;
/** Candidates taken from each ranking before fusing. */
const CANDIDATES = 20;
/** Reciprocal rank fusion's constant (Cormack et al.: 60). */
const RRF_K = 60;
/** Full-text matches ranked under this share of the best one are dropped. */
const MIN_TEXT_RANK_SHARE = 0.2;
/** Vector matches under this cosine similarity, or this far below the best, are dropped. */
const MIN_SIMILARITY = 0.3;
const MAX_SIMILARITY_GAP = 0.25;
const MAX_QUERY_CHARS = 2_000;

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

interface Candidate {
  chunkId: number;
  fileId: number;
  page: number | null;
  heading: string | null;
  text: string;
}

const toCandidate = (row: Record<string, unknown>): Candidate => ({
  chunkId: Number(row.chunk_id),
  fileId: Number(row.file_id),
  page: row.page == null ? null : Number(row.page),
  heading: (row.heading as string | null) ?? null,
  text: String(row.text),
});

/**
 * The query in both configurations, its words OR-ed (a question's words rarely all appear in one passage;
 * the rank rewards passages with more of them). websearch_to_tsquery keeps quoted phrases; a '-word'
 * negation would turn into "anything without it" once OR-ed, so it counts as a plain word.
 */
function orQuery(config: 'pluma_english' | 'pluma_spanish', query: string): SQL {
  return sql`nullif(replace(replace(websearch_to_tsquery(${sql.raw(`'${config}'`)}, ${query})::text, '!', ''), ' & ', ' | '), '')::tsquery`;
}

async function textRanking(ctx: AppContext, fileIds: number[], query: string, reader: KnowledgeLanguage | undefined): Promise<Candidate[]> {
  // Each chunk is matched with the query parsed in its own file's language; the reader's language parse is
  // added so a word both languages stem alike still counts when a reader asks across languages.
  const readerConfig = reader === 'spanish' ? 'pluma_spanish' : 'pluma_english';
  const result = await ctx.db.execute(sql`
    WITH q AS (
      SELECT ${orQuery('pluma_english', query)} AS en, ${orQuery('pluma_spanish', query)} AS es, ${orQuery(readerConfig, query)} AS reader
    ), scored AS (
      SELECT c.chunk_id, c.file_id, c.page, c.heading, c.text,
             ts_rank_cd(c.search, CASE WHEN c.language = 'spanish' THEN q.es ELSE q.en END, 32) AS rank
      FROM knowledge_chunks c, q
      WHERE c.file_id IN (${idList(fileIds)})
        AND (c.search @@ CASE WHEN c.language = 'spanish' THEN q.es ELSE q.en END OR c.search @@ q.reader)
    )
    SELECT * FROM scored ORDER BY rank DESC, chunk_id LIMIT ${CANDIDATES}`);
  const rows = rowsOf(result);
  const best = rows.length ? Number(rows[0].rank) : 0;
  return rows.filter((row) => best === 0 || Number(row.rank) >= best * MIN_TEXT_RANK_SHARE).map(toCandidate);
}

async function vectorRanking(ctx: AppContext, config: EmbeddingConfig, fileIds: number[], query: string): Promise<Candidate[]> {
  let vector: number[];
  try {
    [vector] = await embedTexts(config, [query]);
  } catch {
    // The provider failed: the words still find passages.
    return [];
  }
  const literal = vectorLiteral(vector);
  const result = await ctx.db.execute(sql`
    SELECT c.chunk_id, c.file_id, c.page, c.heading, c.text, 1 - (e.embedding <=> ${literal}::vector) AS similarity
    FROM knowledge_chunk_embeddings e JOIN knowledge_chunks c ON c.chunk_id = e.chunk_id
    WHERE e.file_id IN (${idList(fileIds)}) AND e.model = ${config.model} AND e.dimensions = ${vector.length}
    ORDER BY e.embedding <=> ${literal}::vector, c.chunk_id
    LIMIT ${CANDIDATES}`);
  const rows = rowsOf(result);
  const best = rows.length ? Number(rows[0].similarity) : 0;
  return rows
    .filter((row) => Number(row.similarity) >= MIN_SIMILARITY && Number(row.similarity) >= best - MAX_SIMILARITY_GAP)
    .map(toCandidate);
}

/** Ready files whose index is out of date (new content, or another embedding model): queued again. */
async function requeueStale(ctx: AppContext, fileIds: number[], config: EmbeddingConfig | null): Promise<void> {
  const changedModel = config
    ? or(
        sql`${knowledgeFiles.embeddingModel} IS DISTINCT FROM ${config.model}`,
        config.dimensions ? sql`${knowledgeFiles.embeddingDimensions} IS DISTINCT FROM ${config.dimensions}` : sql`false`,
      )
    : sql`false`;
  const stale = await ctx.db
    .select({ fileId: knowledgeFiles.fileId, language: knowledgeFiles.language })
    .from(knowledgeFiles)
    .innerJoin(files, eq(files.fileId, knowledgeFiles.fileId))
    .where(
      and(
        inArray(knowledgeFiles.fileId, fileIds),
        eq(knowledgeFiles.status, 'ready'),
        or(sql`${knowledgeFiles.sourceKey} IS DISTINCT FROM ${files.storageKey}`, changedModel),
      ),
    );
  for (const row of stale) await queueFileIndexing({ ctx, fileId: row.fileId, language: row.language ?? undefined });
}

/**
 * The passages of these files that best answer `query` (at most 6, default 5). The caller has checked that
 * the actor may use the files. `language` is the reader's ('en' | 'es').
 */
export async function searchPassages(options: { ctx: AppContext; fileIds: number[]; query: string; language?: string; limit?: number }): Promise<Passage[]> {
  const { ctx } = options;
  const fileIds = [...new Set(options.fileIds)].filter((id) => Number.isSafeInteger(id));
  const query = options.query.trim().slice(0, MAX_QUERY_CHARS);
  const limit = Math.max(1, Math.min(MAX_PASSAGES, options.limit ?? DEFAULT_PASSAGES));
  if (fileIds.length === 0 || !query) return [];
  const config = await embeddingConfig(ctx);
  await requeueStale(ctx, fileIds, config);
  const [byText, byVector] = await Promise.all([
    textRanking(ctx, fileIds, query, languageOf(options.language)),
    config ? vectorRanking(ctx, config, fileIds, query) : Promise.resolve([]),
  ]);
  const fused = new Map<number, { candidate: Candidate; score: number }>();
  for (const ranking of [byText, byVector]) {
    ranking.forEach((candidate, index) => {
      const entry = fused.get(candidate.chunkId) ?? { candidate, score: 0 };
      entry.score += 1 / (RRF_K + index + 1);
      fused.set(candidate.chunkId, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.candidate.chunkId - b.candidate.chunkId)
    .slice(0, limit)
    .map(({ candidate, score }) => ({
      chunk_id: candidate.chunkId,
      file_id: candidate.fileId,
      page: candidate.page,
      heading: candidate.heading,
      text: candidate.text,
      score: Math.round(score * 1e6) / 1e6,
    }));
}

/**
 * The whole extracted text of the files, when all of it fits `budgetChars` (the model's context left for
 * knowledge); null when it does not (then search passages instead). Files without text are left out.
 */
export async function wholeFileText(options: { ctx: AppContext; fileIds: number[]; budgetChars: number }): Promise<{ file_id: number; text: string }[] | null> {
  const { ctx } = options;
  const fileIds = [...new Set(options.fileIds)];
  if (fileIds.length === 0) return [];
  const indexed = await ctx.db
    .select({ fileId: knowledgeFiles.fileId, characters: knowledgeFiles.characters })
    .from(knowledgeFiles)
    .where(and(inArray(knowledgeFiles.fileId, fileIds), isNotNull(knowledgeFiles.characters), sql`${knowledgeFiles.chunks} > 0`));
  const total = indexed.reduce((sum, row) => sum + (row.characters ?? 0), 0);
  if (total > options.budgetChars) return null;
  if (indexed.length === 0) return [];
  const chunks = await ctx.db
    .select({ fileId: knowledgeChunks.fileId, text: knowledgeChunks.text, startOffset: knowledgeChunks.startOffset })
    .from(knowledgeChunks)
    .where(inArray(knowledgeChunks.fileId, indexed.map((row) => row.fileId)))
    .orderBy(asc(knowledgeChunks.fileId), asc(knowledgeChunks.ordinal));
  return indexed
    .map((row) => row.fileId)
    .sort((a, b) => fileIds.indexOf(a) - fileIds.indexOf(b))
    .map((fileId) => ({ file_id: fileId, text: textFromChunks(chunks.filter((c) => c.fileId === fileId)) }));
}
