// Knowledge through the real app and job queue, on PGlite (with pgvector) and PostgreSQL (full-text only
// unless the server has pgvector): uploads indexed in the background with honest statuses, retrieval by
// words in English and Spanish (accents folded), the vector path through the OpenAI emulator, retries
// that never duplicate, and deletion that removes passages at once.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../context';
import { knowledgeChunks, knowledgeFiles } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';
import { fileIndexStatuses, queueFileIndexing, reindex, searchPassages, wholeFileText } from './index';
import { runIndexJob } from './indexing';
import { forgetVectorSupport, hasVectorTable } from './vector-support';
import { docxWithSections, pdfWithPages, pngBytes, pptxWithSlides, prose, scannedPdf } from './test-fixtures';

const SPANISH_PAGE =
  'Capítulo sobre la educación pública. La educación pública en España es gratuita y universal para todos los niños. ' +
  'Los colegios públicos reciben fondos del Estado y de las comunidades autónomas.';
const ENGLISH_PAGE = 'Chapter on river ecology. Salmon migrate upstream every autumn to spawn in cold gravel beds of mountain rivers.';

describe(`knowledge (${testDbKind()})`, () => {
  let t: TestApp;
  let openai: RunningEmulator;
  let owner: BuiltUser;
  let stranger: BuiltUser;
  let vectors: boolean;

  beforeAll(async () => {
    openai = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    t = await createTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.url, EMBEDDING_MODEL: 'text-embedding-3-small', EMBEDDING_DIMENSIONS: '256' });
    owner = await buildUser(t.ctx);
    stranger = await buildUser(t.ctx);
    vectors = await hasVectorTable(t.ctx);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  async function upload(who: BuiltUser, name: string, bytes: Buffer): Promise<number> {
    const { payload, headers } = multipartBody({ name, bytes });
    const res = await t.app.inject({ method: 'POST', url: '/api/files', payload, headers: { ...headers, ...who.auth } });
    expect(res.statusCode).toBe(201);
    return res.json().file_id as number;
  }

  /** Waits for the background job to finish the file (ready or failed). */
  async function settled(fileId: number) {
    for (let i = 0; i < 300; i++) {
      const [row] = await fileIndexStatuses({ ctx: t.ctx, fileIds: [fileId] });
      if (row && (row.status === 'ready' || row.status === 'failed')) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`file ${fileId} was not indexed in time`);
  }

  async function indexed(who: BuiltUser, name: string, bytes: Buffer, language?: string) {
    const fileId = await upload(who, name, bytes);
    await queueFileIndexing({ ctx: t.ctx, fileId, language });
    return { fileId, status: await settled(fileId) };
  }

  const chunkCount = async (fileId: number) =>
    (await t.ctx.db.select({ n: count() }).from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)))[0].n;
  const embeddingCount = async (fileId: number) =>
    Number(((await t.ctx.database.executeSql('SELECT count(*) AS n FROM knowledge_chunk_embeddings WHERE file_id = $1', [fileId])).rows[0] as { n: unknown }).n);

  it('indexes a PDF in the background: queued, then ready with pages, language and (where pgvector is) vectors', async () => {
    const fileId = await upload(owner, 'report.pdf', await pdfWithPages([ENGLISH_PAGE, SPANISH_PAGE]));
    const queued = await queueFileIndexing({ ctx: t.ctx, fileId, language: 'en' });
    expect(queued.status).toBe('queued');
    const row = await settled(fileId);
    expect(row).toMatchObject({ status: 'ready', progress: 100, failureReason: null, pages: 2, chunks: 2 });
    // Each page's passage is indexed in its own language (a mixed file).
    const languages = await t.ctx.db.select({ page: knowledgeChunks.page, language: knowledgeChunks.language }).from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(knowledgeChunks.ordinal);
    expect(languages).toEqual([
      { page: 1, language: 'english' },
      { page: 2, language: 'spanish' },
    ]);
    expect(row.embeddingModel).toBe(vectors ? 'text-embedding-3-small' : null);
    expect(row.embeddingDimensions).toBe(vectors ? 256 : null);
    if (vectors) expect(await embeddingCount(fileId)).toBe(2);

    const english = await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'When do salmon migrate?', language: 'en' });
    expect(english[0]).toMatchObject({ file_id: fileId, page: 1 });
    expect(english[0].text).toContain('Salmon migrate');
  });

  it('finds a Spanish passage by its words with or without accents, and by a question', async () => {
    const { fileId, status } = await indexed(owner, 'escuela.pdf', await pdfWithPages([SPANISH_PAGE, prose('the weather', 5)]), 'es');
    expect(status.status).toBe('ready');
    const [spanishChunk] = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).limit(1);
    expect(spanishChunk.page).toBe(1);
    for (const query of ['educacion publica', 'educación pública', '¿Qué reciben los colegios públicos?', 'EDUCACIÓN']) {
      const passages = await searchPassages({ ctx: t.ctx, fileIds: [fileId], query, language: 'es' });
      expect(passages.length, query).toBeGreaterThan(0);
      expect(passages[0].text, query).toContain('educación pública');
      expect(passages[0].page, query).toBe(1);
    }
    // Words that are nowhere in the file find nothing (the cut-off keeps unrelated passages out).
    expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'quantum chromodynamics gluon', language: 'en' })).toEqual([]);
  });

  it('keeps the top passages of long files in rank order, at most six, each with its page', async () => {
    const pages = Array.from({ length: 8 }, (_, i) => (i === 5 ? `Glaciers retreat. ${prose('glaciers retreating', 30)}` : prose(`topic ${i} of farming`, 30)));
    const { fileId, status } = await indexed(owner, 'long.pdf', await pdfWithPages(pages));
    expect(status.status).toBe('ready');
    expect(status.chunks).toBeGreaterThan(8);
    const passages = await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'glaciers retreating', limit: 50 });
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(6);
    expect(passages.every((p) => p.page === 6)).toBe(true);
    expect(passages.map((p) => p.score)).toEqual([...passages.map((p) => p.score)].sort((a, b) => b - a));
  });

  it('indexes Word, PowerPoint and text files with headings and slides', async () => {
    const docx = await indexed(owner, 'notes.docx', await docxWithSections([{ heading: 'Beekeeping', paragraphs: ['Hives need inspection every week in spring.'] }]));
    expect(docx.status).toMatchObject({ status: 'ready', pages: null });
    expect((await searchPassages({ ctx: t.ctx, fileIds: [docx.fileId], query: 'hive inspection' }))[0]).toMatchObject({ heading: 'Beekeeping', page: null });

    const pptx = await indexed(owner, 'deck.pptx', await pptxWithSlides([{ title: 'Intro', body: 'Welcome everyone.' }, { title: 'Budget', body: 'Marketing spend doubles next year.' }]));
    expect(pptx.status).toMatchObject({ status: 'ready', pages: 2 });
    const [slide] = await searchPassages({ ctx: t.ctx, fileIds: [pptx.fileId], query: 'marketing spend' });
    expect(slide).toMatchObject({ heading: 'Budget', page: 2 });

    const txt = await indexed(owner, 'recetas.txt', Buffer.from('# Postres\n\nEl flan lleva huevos, leche y azúcar caramelizado.'));
    expect(txt.status).toMatchObject({ status: 'ready', language: 'spanish' });
    expect((await searchPassages({ ctx: t.ctx, fileIds: [txt.fileId], query: 'azucar' }))[0]).toMatchObject({ heading: 'Postres' });
  });

  it('says a scanned PDF has no text instead of "ready", and an image is not a document', async () => {
    const scanned = await indexed(owner, 'scan.pdf', await scannedPdf());
    expect(scanned.status).toMatchObject({ status: 'failed', failureReason: 'no_text', chunks: 0 });
    expect(await chunkCount(scanned.fileId)).toBe(0);

    const image = await indexed(owner, 'photo.png', pngBytes());
    expect(image.status).toMatchObject({ status: 'failed', failureReason: 'unsupported_type' });
  });

  it('a retry or a re-index replaces the chunks, never duplicates them; an older job does not write', async () => {
    const { fileId } = await indexed(owner, 'again.pdf', await pdfWithPages([ENGLISH_PAGE, SPANISH_PAGE]));
    const before = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(knowledgeChunks.ordinal);
    await reindex({ ctx: t.ctx, fileIds: [fileId, fileId] });
    const row = await settled(fileId);
    expect(row.generation).toBe(2);
    const after = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(knowledgeChunks.ordinal);
    expect(after.map((c) => c.chunkId)).not.toEqual(before.map((c) => c.chunkId));
    expect(after.map((c) => c.ordinal)).toEqual(before.map((c) => c.ordinal));
    if (vectors) expect(await embeddingCount(fileId)).toBe(after.length);

    // The same job delivered twice (pg-boss retries after a crash): the second run replaces, not adds.
    const noProgress: JobProgress = async () => undefined;
    expect(await runIndexJob(t.ctx, { fileId, generation: 2 }, noProgress)).toEqual({ status: 'ready' });
    expect(await chunkCount(fileId)).toBe(after.length);
    // A job of an older request stops without touching the newer index.
    expect(await runIndexJob(t.ctx, { fileId, generation: 1 }, noProgress)).toEqual({ status: 'superseded' });
    expect((await fileIndexStatuses({ ctx: t.ctx, fileIds: [fileId] }))[0].status).toBe('ready');
  });

  it('deleting a file removes its passages at once: never retrieved again', async () => {
    const { fileId } = await indexed(owner, 'gone.pdf', await pdfWithPages([SPANISH_PAGE]));
    expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'educacion' })).toHaveLength(1);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/files/${fileId}`, headers: owner.auth });
    expect(res.statusCode).toBe(204);
    expect(await chunkCount(fileId)).toBe(0);
    if (vectors) expect(await embeddingCount(fileId)).toBe(0);
    expect(await fileIndexStatuses({ ctx: t.ctx, fileIds: [fileId] })).toEqual([]);
    expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'educacion' })).toEqual([]);
  });

  it('searches only the files it is given', async () => {
    const mine = await indexed(owner, 'mine.txt', Buffer.from(ENGLISH_PAGE));
    const theirs = await indexed(stranger, 'theirs.txt', Buffer.from(`${ENGLISH_PAGE} Also trout.`));
    const passages = await searchPassages({ ctx: t.ctx, fileIds: [mine.fileId], query: 'salmon trout' });
    expect(passages.map((p) => p.file_id)).toEqual([mine.fileId]);
    expect(await searchPassages({ ctx: t.ctx, fileIds: [], query: 'salmon' })).toEqual([]);
    expect(await searchPassages({ ctx: t.ctx, fileIds: [theirs.fileId], query: '   ' })).toEqual([]);
  });

  it('gives the whole text instead when it fits the budget', async () => {
    const long = prose('whole files', 60);
    const { fileId } = await indexed(owner, 'whole.txt', Buffer.from(long));
    expect(await wholeFileText({ ctx: t.ctx, fileIds: [fileId], budgetChars: 100 })).toBeNull();
    expect(await wholeFileText({ ctx: t.ctx, fileIds: [fileId], budgetChars: 100_000 })).toEqual([{ file_id: fileId, text: long }]);
  });

  it('re-indexes a file whose content was replaced, when it is next searched', async () => {
    const { fileId } = await indexed(owner, 'edit.txt', Buffer.from('Original words about lighthouses on the coast.'));
    const { payload, headers } = multipartBody({ name: 'edit.txt', bytes: Buffer.from('New words about windmills in the plains.') });
    expect((await t.app.inject({ method: 'PUT', url: `/api/files/${fileId}`, payload, headers: { ...headers, ...owner.auth } })).statusCode).toBe(200);
    await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'lighthouses' });
    expect((await fileIndexStatuses({ ctx: t.ctx, fileIds: [fileId] }))[0].status).not.toBe('ready');
    await settled(fileId);
    expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'lighthouses' })).toEqual([]);
    expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'windmills' })).toHaveLength(1);
  });

  it('GET /api/files/{id}/index-status: the owner sees it; another user, or no one, does not', async () => {
    const { fileId } = await indexed(owner, 'status.pdf', await scannedPdf());
    const res = await t.app.inject({ url: `/api/files/${fileId}/index-status`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ file_id: fileId, status: 'failed', failure_reason: 'no_text', progress: 100, chunks: 0 });
    expect((await t.app.inject({ url: `/api/files/${fileId}/index-status`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/files/${fileId}/index-status` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/files/999999/index-status', headers: owner.auth })).statusCode).toBe(404);
    const fresh = await upload(owner, 'fresh.txt', Buffer.from('Not queued yet.'));
    expect((await t.app.inject({ url: `/api/files/${fresh}/index-status`, headers: owner.auth })).json()).toMatchObject({ status: 'none' });
  });

  it.runIf(testDbKind() === 'pglite')('uses vectors when words differ but meaning is close, and re-indexes when the model changes', async () => {
    const { fileId } = await indexed(owner, 'vectors.txt', Buffer.from(`${prose('gardening tomatoes', 4)}\n\n${'x '.repeat(10)}`));
    // Stems shared with the passage ("garde", "tomat") but no whole word: only the vector ranking finds it.
    const passages = await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'gardener tomatoey' });
    expect(passages).toHaveLength(1);
    expect(openai.stats.lastRequest).toMatchObject({ model: 'text-embedding-3-small', dimensions: 256 });

    // Another model configured: the file is queued again and indexed with it.
    const before = t.ctx.env.EMBEDDING_MODEL;
    t.ctx.env.EMBEDDING_MODEL = 'text-embedding-3-large';
    try {
      await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'tomatoes' });
      const row = await settled(fileId);
      expect(row).toMatchObject({ status: 'ready', embeddingModel: 'text-embedding-3-large', embeddingDimensions: 256 });
    } finally {
      t.ctx.env.EMBEDDING_MODEL = before;
    }
  });

  it.runIf(testDbKind() === 'pglite')('an embedding failure leaves the words searchable and says so', async () => {
    openai.failNext(400, 10);
    try {
      const { fileId, status } = await indexed(owner, 'novectors.txt', Buffer.from(ENGLISH_PAGE));
      expect(status).toMatchObject({ status: 'failed', failureReason: 'embedding_failed', embeddingModel: null });
      expect(await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'salmon' })).toHaveLength(1);
    } finally {
      openai.failNext(0, 0);
    }
  });

  it('without pgvector, retrieval is full-text only', async () => {
    if (vectors) await t.ctx.database.executeSql('DROP TABLE knowledge_chunk_embeddings', []);
    forgetVectorSupport(t.ctx);
    expect(await hasVectorTable(t.ctx)).toBe(false);
    const { fileId, status } = await indexed(owner, 'plain.txt', Buffer.from(SPANISH_PAGE));
    expect(status).toMatchObject({ status: 'ready', embeddingModel: null });
    expect((await searchPassages({ ctx: t.ctx, fileIds: [fileId], query: 'educacion' }))[0].text).toContain('educación');
    expect(await t.ctx.db.select({ n: count() }).from(knowledgeFiles).where(sql`${knowledgeFiles.status} = 'indexing'`)).toEqual([{ n: 0 }]);
  });
});
