// The tutorials' operations (DESIGN.md §7: framework-free, `{ actor, db }` in, rows out; routes present).
// Lists are one language in the staff's order, paged; writes are staff admins' (the routes' guard) and
// keep each language's places distinct (new and moved tutorials go last, under a lock).
import { isImageFileType } from '@pluma/common/files';
import { TUTORIALS_PAGE_SIZE, type ListTutorialsQuery, type TutorialLanguage } from '@pluma/common/tutorials';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { createTutorialRequest, listTutorialsQuery, updateTutorialRequest } from '@pluma/common/tutorials';
import type { Db, Tx } from '../../db/client';
import { files, tutorials } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { badRequest } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { canManageTutorials, tutorialPolicy, type TutorialRow } from './policy';

interface Scope {
  actor: Actor;
  db: Db;
}

export type ListOptions = z.output<typeof listTutorialsQuery>;
export type { ListTutorialsQuery };

/** Rows with their uploaded thumbnail's name and type. */
function selectPresentable(db: Db | Tx) {
  return db
    .select({ tutorial: tutorials, file: { fileId: files.fileId, type: files.type, publicName: files.publicName } })
    .from(tutorials)
    .leftJoin(files, eq(files.fileId, tutorials.thumbnailFileId));
}

export type TutorialListRow = Awaited<ReturnType<ReturnType<typeof selectPresentable>['where']>>[number];

/** A page of one language's tutorials, and whether the actor may manage them (the list shows both). */
export interface TutorialPage {
  rows: TutorialListRow[];
  total: number;
  page: number;
  pageSize: number;
  language: TutorialLanguage;
  canManage: boolean;
}

const languageOf = (actor: Actor): TutorialLanguage => (actor.user.lang === 'es' ? 'es' : 'en');

/** GET /tutorials: one language (absent: the user's own), in order, searched in name and description. */
export async function listTutorials({ actor, db, options }: Scope & { options: ListOptions }): Promise<TutorialPage> {
  const language = options.language ?? languageOf(actor);
  const filters: SQL[] = [eq(tutorials.language, language)];
  if (options.query) {
    const pattern = `%${escapeLikePattern(options.query)}%`;
    filters.push(or(ilike(tutorials.name, pattern), ilike(tutorials.description, pattern)) as SQL);
  }
  const where = and(...filters);
  const rows = await selectPresentable(db)
    .where(where)
    .orderBy(asc(tutorials.order), asc(tutorials.tutorialId))
    .limit(TUTORIALS_PAGE_SIZE)
    .offset((options.page - 1) * TUTORIALS_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(tutorials).where(where);
  return { rows, total, page: options.page, pageSize: TUTORIALS_PAGE_SIZE, language, canManage: canManageTutorials(actor) };
}

async function loadTutorial(db: Db | Tx, actor: Actor, tutorialId: number): Promise<TutorialListRow> {
  await tutorialPolicy.require(db, actor, tutorialId);
  const [row] = await selectPresentable(db).where(eq(tutorials.tutorialId, tutorialId)).limit(1);
  return row;
}

/** GET /tutorials/{id}. */
export async function getTutorial({ actor, db, tutorialId }: Scope & { tutorialId: number }): Promise<TutorialListRow> {
  return loadTutorial(db, actor, tutorialId);
}

/** An uploaded thumbnail: a public image (any staff admin's: tutorials are shared work); else a 400. */
async function checkedThumbnailFile(tx: Tx, fileId: number, current: number | null): Promise<void> {
  if (fileId === current) return;
  const [file] = await tx.select().from(files).where(eq(files.fileId, fileId)).limit(1);
  if (!file || !isImageFileType(file.type) || file.publicName === null) {
    throw badRequest('tutorial_thumbnail_file_invalid', { thumbnail_file_id: 'tutorial_thumbnail_file_invalid' });
  }
}

/** Serializes place-taking in a language's list (several nodes may write at once). */
async function lockOrder(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pluma:tutorials:order'))`);
}

/** The place after the last tutorial of a language. */
async function nextPlace(tx: Tx, language: TutorialLanguage): Promise<number> {
  const [row] = await tx.select({ last: sql<number | null>`max(${tutorials.order})` }).from(tutorials).where(eq(tutorials.language, language));
  return row.last === null ? 0 : Number(row.last) + 1;
}

/** POST /tutorials: goes last in its language. */
export async function createTutorial({ actor, db, input }: Scope & { input: z.output<typeof createTutorialRequest> }): Promise<TutorialListRow> {
  return db.transaction(async (tx) => {
    if (input.thumbnail_file_id) await checkedThumbnailFile(tx, input.thumbnail_file_id, null);
    await lockOrder(tx);
    const [row] = await tx
      .insert(tutorials)
      .values({
        name: input.name,
        description: input.description ?? '',
        language: input.language,
        src: input.src,
        thumbnailUrl: input.thumbnail || null,
        thumbnailFileId: input.thumbnail_file_id ?? null,
        order: await nextPlace(tx, input.language),
      })
      .returning();
    return loadTutorial(tx, actor, row.tutorialId);
  });
}

/** PUT /tutorials: fields left out stay; a tutorial moved to another language goes last there. */
export async function updateTutorial({ actor, db, input }: Scope & { input: z.output<typeof updateTutorialRequest> }): Promise<TutorialListRow> {
  return db.transaction(async (tx) => {
    const current = await tutorialPolicy.require(tx, actor, input.tutorial_id, 'edit', { forUpdate: true });
    const set: Partial<typeof tutorials.$inferInsert> = { updatedAt: new Date() };
    if (input.name !== undefined) set.name = input.name;
    if (input.description !== undefined) set.description = input.description;
    if (input.src !== undefined) set.src = input.src;
    if (input.thumbnail !== undefined) set.thumbnailUrl = input.thumbnail || null;
    if (input.thumbnail_file_id !== undefined) {
      if (input.thumbnail_file_id !== null) await checkedThumbnailFile(tx, input.thumbnail_file_id, current.thumbnailFileId);
      set.thumbnailFileId = input.thumbnail_file_id;
    }
    if (input.language !== undefined && input.language !== current.language) {
      await lockOrder(tx);
      set.language = input.language;
      set.order = await nextPlace(tx, input.language);
    }
    await tx.update(tutorials).set(set).where(eq(tutorials.tutorialId, current.tutorialId));
    return loadTutorial(tx, actor, current.tutorialId);
  });
}

/** DELETE /tutorials/{id}. An uploaded thumbnail stays with its uploader (files are theirs to delete). */
export async function deleteTutorial({ actor, db, tutorialId }: Scope & { tutorialId: number }): Promise<void> {
  await db.transaction(async (tx) => {
    await tutorialPolicy.require(tx, actor, tutorialId, 'delete', { forUpdate: true });
    await tx.delete(tutorials).where(eq(tutorials.tutorialId, tutorialId));
  });
}

/**
 * PUT /tutorials/order: the tutorials take, in the order given, the places they held between them (their
 * current places sorted). Every id must exist (else 404) and share one language (else 400).
 */
export async function reorderTutorials({ actor, db, ids }: Scope & { ids: number[] }): Promise<TutorialListRow[]> {
  return db.transaction(async (tx) => {
    await lockOrder(tx);
    const rows: TutorialRow[] = await tx.select().from(tutorials).where(inArray(tutorials.tutorialId, ids)).for('update');
    if (rows.length !== ids.length) {
      // One unknown id refuses the whole order: nothing changes.
      await tutorialPolicy.require(tx, actor, ids.find((id) => !rows.some((r) => r.tutorialId === id)) as number);
    }
    if (new Set(rows.map((r) => r.language)).size > 1) throw badRequest('tutorial_order_mixed_languages', { ids: 'tutorial_order_mixed_languages' });
    const places = rows.map((r) => r.order).sort((a, b) => a - b);
    // Places held twice (e.g. rows written before this rule) are spread out from the first one.
    for (let i = 1; i < places.length; i += 1) if (places[i] <= places[i - 1]) places[i] = places[i - 1] + 1;
    const now = new Date();
    for (const [index, tutorialId] of ids.entries()) {
      const row = rows.find((r) => r.tutorialId === tutorialId) as TutorialRow;
      if (row.order !== places[index]) await tx.update(tutorials).set({ order: places[index], updatedAt: now }).where(eq(tutorials.tutorialId, tutorialId));
    }
    return selectPresentable(tx).where(inArray(tutorials.tutorialId, ids)).orderBy(asc(tutorials.order), asc(tutorials.tutorialId));
  });
}
