// Template operations (spec part 2 §2 "Templates", §4, §5 "Template save", §6, §7 "Templates"),
// framework-free: verbNoun({ actor, db, ... }) (DESIGN.md §7). Every read and write is scoped by policy.ts.
import { ErrorIds } from '@pluma/common/errors';
import { checkFieldValues, checkTemplateDraft, fillTemplate, parseTemplateFields, type TemplateField } from '@pluma/common/rules/template-fields';
import {
  TEMPLATES_PAGE_SIZE,
  type CreateTemplateRequest,
  type TemplateLanguage,
  type TemplateSortKey,
  type TemplateTagList,
  type TemplateTypeList,
  type UpdateTemplateRequest,
} from '@pluma/common/templates';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { LIST_TOTAL_CAP, pageTotal, planCount, SEARCH_TOTAL_CAP, type CappedTotal } from '../../db/capped-count';
import { containsText } from '../../db/contains-text';
import { after, nextPageCursor, orderBy, readPageCursor, type PageKey, type PageOrder } from '../../db/page-cursor';
import type { Db, Tx } from '../../db/client';
import { templateFavorites, templates, templateTagLinks, templateTags, templateTypes, templateUses, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest } from '../../platform/http/errors';
import { sharedThroughCampaigns } from '../campaigns';
import { canReadPrompt, isAdmin, listedFor, ownedBy, templatePolicy, templateTaxonomyRules, type TemplateRow } from './policy';

export interface Scope {
  actor: Actor;
  db: Db;
}

const refused = (key: 'template_public_admins_only' | 'template_prompt_owner_only' | 'template_admin_only' | 'template_prompt_hidden') =>
  new AppError(403, ErrorIds.forbidden, key);

// ---- the rows with what their JSON shows besides (present.ts presentTemplateRow) ----

/** The extras of each template, computed in the same query as the rows. */
const extrasColumns = (actor: Actor) => ({
  typeName: templateTypes.name,
  author: { name: users.name, lastName: users.lastName },
  tags: sql<string[]>`coalesce((select json_agg(tt.name order by lower(tt.name)) from ${templateTagLinks} l join ${templateTags} tt on tt.tag_id = l.tag_id where l.template_id = ${templates.templateId}), '[]'::json)`,
  favorite: sql<boolean>`exists (select 1 from ${templateFavorites} f where f.template_id = ${templates.templateId} and f.user_id = ${actor.user.userId})`,
  usedAt: templateUses.usedAt,
});

function selectPresentable(db: Db | Tx, actor: Actor) {
  return db
    .select({ template: templates, ...extrasColumns(actor) })
    .from(templates)
    .leftJoin(templateTypes, eq(templateTypes.typeId, templates.typeId))
    .leftJoin(users, eq(users.userId, templates.userId))
    .leftJoin(templateUses, and(eq(templateUses.templateId, templates.templateId), eq(templateUses.userId, actor.user.userId)));
}

export type TemplateListRow = Awaited<ReturnType<ReturnType<typeof selectPresentable>['where']>>[number];

async function loadTemplate({ actor, db }: { actor: Actor; db: Db | Tx }, templateId: number): Promise<TemplateListRow> {
  const [row] = await selectPresentable(db, actor).where(eq(templates.templateId, templateId)).limit(1);
  return row;
}

// ---- lists ----

export interface ListOptions {
  tag?: string;
  type?: string;
  favorites?: boolean;
  query?: string;
  page: number;
  language?: TemplateLanguage;
  sortBy: TemplateSortKey;
  admin?: boolean;
  /** GET /templates/public: the public library only. */
  publicOnly?: boolean;
  /** The previous page's next_cursor (server/src/db/page-cursor.ts). */
  cursor?: string;
}

/** spec part 2 §2: Last Created, Last Used (the actor's last use, else the last change), A-Z, Z-A. */
function orderOf(sortBy: TemplateSortKey): SQL[] {
  switch (sortBy) {
    case 'createdAt_desc':
      return [desc(templates.createdAt), desc(templates.templateId)];
    case 'updatedAt_desc':
      return [sql`coalesce(${templateUses.usedAt}, ${templates.updatedAt}) desc`, desc(templates.templateId)];
    case 'name_asc':
      return [sql`lower(${templates.name}) asc`, asc(templates.templateId)];
    case 'name_desc':
      return [sql`lower(${templates.name}) desc`, desc(templates.templateId)];
  }
}

/** The page's sort key of a listed row, as text (the next cursor's value; orderOf's first key). */
function sortKeyOf(sortBy: TemplateSortKey): { key: SQL<string>; type: PageOrder['type'] } {
  switch (sortBy) {
    case 'createdAt_desc':
      return { key: sql<string>`(${templates.createdAt})::text`, type: 'timestamptz' };
    case 'updatedAt_desc':
      return { key: sql<string>`(coalesce(${templateUses.usedAt}, ${templates.updatedAt}))::text`, type: 'timestamptz' };
    case 'name_asc':
    case 'name_desc':
      return { key: sql<string>`lower(${templates.name})`, type: 'text' };
  }
}

/**
 * The ways one listing branch is read in the sort's order, each over an index: the key, the rows it reads
 * (`from`) and what else they must meet. Last Used is the actor's use when there is one, else the last change:
 * the used templates in the order of their use (template_uses_user_used_idx), then the others by their change
 * (templates_user_org_updated_idx, templates_public_updated_idx), merged by the outer query.
 */
function sortParts(actor: Actor, sortBy: TemplateSortKey): Array<{ key: SQL; from: SQL; also?: SQL; alone?: true }> {
  switch (sortBy) {
    case 'createdAt_desc':
      return [{ key: sql`${templates.createdAt}`, from: sql`${templates}`, alone: true }];
    case 'name_asc':
    case 'name_desc':
      return [{ key: sql`lower(${templates.name})`, from: sql`${templates}`, alone: true }];
    case 'updatedAt_desc':
      return [
        { key: sql`u.used_at`, from: sql`${templates} join ${templateUses} u on u.template_id = ${templates.templateId} and u.user_id = ${actor.user.userId}` },
        {
          key: sql`${templates.updatedAt}`,
          from: sql`${templates}`,
          alone: true,
          also: sql`not exists (select 1 from ${templateUses} u where u.template_id = ${templates.templateId} and u.user_id = ${actor.user.userId})`,
        },
      ];
  }
}

const directionOf = (sortBy: TemplateSortKey): 'asc' | 'desc' => (sortBy === 'name_asc' ? 'asc' : 'desc');

/**
 * The ids of the page: the first `offset + 24` of each way a template is listed (own in this context, public,
 * shared through a campaign) hold the first `offset + 24` of the whole list, and the page is cut from them
 * before anything is joined. `listedFor` is an OR of the three, which no index serves: a heavy user's every
 * template was read, joined and sorted for each page (issue 31 item 1). Each branch here walks its own index
 * in the sort's order and stops. From a cursor (the previous page's last key, page-cursor.ts) each branch
 * starts after it and reads 24.
 */
function pageIds(actor: Actor, filters: SQL[], sortBy: TemplateSortKey, offset: number, from: PageKey | null): SQL {
  const branches: SQL[] = [ownedBy(actor), eq(templates.public, true)];
  if (actor.organization) branches.push(sharedThroughCampaigns(actor, 'template', templates.templateId));
  const direction = directionOf(sortBy);
  const dir = sql.raw(direction);
  const skip = from ? 0 : offset;
  const n = skip + TEMPLATES_PAGE_SIZE;
  const type = sortKeyOf(sortBy).type;
  const parts = branches.flatMap((branch, i) =>
    sortParts(actor, sortBy).map(({ key, from: rows, also, alone }) => {
      // The own branch over templates alone leads with its context, as templates_user_org_*_idx (page-cursor.ts PageOrder.context).
      const order: PageOrder = { key, id: templates.templateId, direction, type, context: i === 0 && alone ? [templates.userId, templates.organizationId] : undefined };
      const start = from ? after(order, from) : undefined;
      return sql`(select ${templates.templateId} as id, ${key} as k from ${rows} where ${and(branch, ...filters, also, start)} order by ${sql.join(orderBy(order), sql`, `)} limit ${n})`;
    }),
  );
  return sql`${templates.templateId} in (select c.id from (${sql.join(parts, sql` union `)}) c order by c.k ${dir}, c.id ${dir} limit ${TEMPLATES_PAGE_SIZE} offset ${skip})`;
}

const hasTag = (name: string): SQL =>
  sql`exists (select 1 from ${templateTagLinks} l join ${templateTags} tt on tt.tag_id = l.tag_id where l.template_id = ${templates.templateId} and lower(tt.name) = lower(${name}))`;
const hasType = (name: string): SQL => sql`${templates.typeId} in (select ty.type_id from ${templateTypes} ty where lower(ty.name) = lower(${name}))`;

/** GET /templates and its variants: filtered, sorted, 24 per page (spec part 2 §9). */
export async function listTemplates({
  actor,
  db,
  options,
}: Scope & { options: ListOptions }): Promise<{ rows: TemplateListRow[]; total: CappedTotal; page: number; pageSize: number; next_cursor: string | null }> {
  if (options.admin && !isAdmin(actor)) throw refused('template_admin_only');
  const everything = options.admin === true && isAdmin(actor);
  const filters: SQL[] = [];
  if (options.publicOnly) filters.push(eq(templates.public, true));
  if (options.tag) filters.push(hasTag(options.tag));
  if (options.type) filters.push(hasType(options.type));
  if (options.favorites) {
    filters.push(sql`exists (select 1 from ${templateFavorites} f where f.template_id = ${templates.templateId} and f.user_id = ${actor.user.userId})`);
  }
  if (options.language) filters.push(eq(templates.language, options.language));
  if (options.query) {
    filters.push(or(containsText(templates.name, options.query), containsText(templates.description, options.query)) as SQL);
  }
  const where = and(listedFor(actor, everything), ...filters);
  const offset = (options.page - 1) * TEMPLATES_PAGE_SIZE;
  const { key: sortKey, type } = sortKeyOf(options.sortBy);
  const { tag, type: typeName, favorites, language, query, publicOnly } = options;
  const scope = ['templates', actor.user.userId, actor.organization?.organizationId ?? null, options.sortBy, everything, [tag, typeName, favorites, language, query, publicOnly]];
  // Staff admins' every-template list has no branches: it is read by its offset.
  const from = everything ? null : readPageCursor(options.cursor, scope, offset, type);
  const cap = filters.length > 0 ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  // The first page counts in its own query (capped-count.ts planCount); other pages after it.
  const counted = { where, jump: offset > 0 };
  const found = await db
    .select({ template: templates, ...extrasColumns(actor), sortKey, matches: planCount(templates, counted, cap) })
    .from(templates)
    .leftJoin(templateTypes, eq(templateTypes.typeId, templates.typeId))
    .leftJoin(users, eq(users.userId, templates.userId))
    .leftJoin(templateUses, and(eq(templateUses.templateId, templates.templateId), eq(templateUses.userId, actor.user.userId)))
    .where(everything ? where : pageIds(actor, filters, options.sortBy, offset, from))
    .orderBy(...orderOf(options.sortBy))
    .limit(TEMPLATES_PAGE_SIZE)
    .offset(everything ? offset : 0);
  const last = found.at(-1);
  // Rows after the page's last one, on the templates row alone (Last Used's key needs the actor's use: counted from the start).
  const rest = last && options.sortBy !== 'updatedAt_desc' ? after({ key: sortParts(actor, options.sortBy)[0].key, id: templates.templateId, direction: directionOf(options.sortBy), type }, { value: last.sortKey, id: last.template.templateId }) : undefined;
  const total = await pageTotal(db, !counted.jump, last?.matches, { table: templates, where, offset, pageSize: TEMPLATES_PAGE_SIZE, pageRows: found.length, cap, after: rest });
  const next_cursor = everything ? null : nextPageCursor(scope, offset, TEMPLATES_PAGE_SIZE, found.map((r) => ({ sortKey: r.sortKey, id: r.template.templateId })));
  const rows: TemplateListRow[] = found.map(({ sortKey: _key, matches: _matches, ...row }) => row);
  return { rows, total, page: options.page, pageSize: TEMPLATES_PAGE_SIZE, next_cursor };
}

/** GET /templates/tags: the admin-managed tags, each with how many templates the actor would list under it. */
export async function listTemplateTags({ actor, db }: Scope): Promise<TemplateTagList> {
  const listed = listedFor(actor);
  const rows = await db
    .select({
      tag_id: templateTags.tagId,
      name: templateTags.name,
      // Spelled out with table names: drizzle leaves columns of a one-table select unqualified.
      count: sql<number>`(select count(*)::int from template_tag_links l join templates on templates.template_id = l.template_id where l.tag_id = template_tags.tag_id and ${listed})`,
    })
    .from(templateTags)
    .orderBy(sql`lower(${templateTags.name})`, asc(templateTags.tagId));
  return { tags: rows.map((r) => ({ ...r, count: Number(r.count) })) };
}

/** GET /templates/types: the admin-managed types, each with how many templates the actor would list of it. */
export async function listTemplateTypes({ actor, db }: Scope): Promise<TemplateTypeList> {
  const listed = listedFor(actor);
  const rows = await db
    .select({
      type_id: templateTypes.typeId,
      name: templateTypes.name,
      count: sql<number>`(select count(*)::int from templates where templates.type_id = template_types.type_id and ${listed})`,
    })
    .from(templateTypes)
    .orderBy(sql`lower(${templateTypes.name})`, asc(templateTypes.typeId));
  return { types: rows.map((r) => ({ ...r, count: Number(r.count) })) };
}

// ---- one template ----

/** GET /templates/{id}. */
export async function getTemplate(scope: Scope & { templateId: number }): Promise<TemplateListRow> {
  const row = await templatePolicy.require(scope.db, scope.actor, scope.templateId);
  return loadTemplate(scope, row.templateId);
}

/** spec part 2 §5: name, description, content and every field rule, or 'Please complete all the required fields to save.' */
function assertValidDraft(draft: { name: string; description: string; content: string }, prefix = ''): void {
  const check = checkTemplateDraft(draft);
  if (check.valid) return;
  const details = Object.fromEntries(Object.entries(check.errors).map(([input, key]) => [`${prefix}${input}`, key]));
  throw badRequest('template_required_fields', details);
}

/** Names of the admin-managed lists → ids; unknown names are refused (400) unless `onUnknown` says otherwise. */
async function resolveNames(
  db: Db | Tx,
  input: { tags?: string[]; type?: string | null },
  onUnknown: 'refuse' | 'create' | 'drop',
): Promise<{ tagIds?: number[]; typeId?: number | null }> {
  const result: { tagIds?: number[]; typeId?: number | null } = {};
  if (input.tags !== undefined) {
    const wanted = [...new Map(input.tags.map((t) => t.trim()).filter(Boolean).map((t) => [t.toLowerCase(), t])).values()];
    if (onUnknown === 'create' && wanted.length > 0) {
      await db.insert(templateTags).values(wanted.map((name) => ({ name }))).onConflictDoNothing();
    }
    const found =
      wanted.length === 0
        ? []
        : await db
            .select({ tagId: templateTags.tagId, name: templateTags.name })
            .from(templateTags)
            .where(inArray(sql`lower(${templateTags.name})`, wanted.map((t) => t.toLowerCase())));
    if (onUnknown === 'refuse' && found.length < wanted.length) throw badRequest('template_tag_unknown', { tags: 'template_tag_unknown' });
    result.tagIds = found.map((f) => f.tagId);
  }
  if (input.type !== undefined) {
    const name = input.type?.trim() ?? '';
    if (name === '') result.typeId = null;
    else {
      if (onUnknown === 'create') await db.insert(templateTypes).values({ name }).onConflictDoNothing();
      const [found] = await db
        .select({ typeId: templateTypes.typeId })
        .from(templateTypes)
        .where(eq(sql`lower(${templateTypes.name})`, name.toLowerCase()))
        .limit(1);
      if (!found && onUnknown === 'refuse') throw badRequest('template_type_unknown', { type: 'template_type_unknown' });
      result.typeId = found?.typeId ?? null;
    }
  }
  return result;
}

async function setTags(db: Db | Tx, templateId: number, tagIds: number[]): Promise<void> {
  await db.delete(templateTagLinks).where(eq(templateTagLinks.templateId, templateId));
  if (tagIds.length > 0) await db.insert(templateTagLinks).values(tagIds.map((tagId) => ({ templateId, tagId }))).onConflictDoNothing();
}

/** What a new template is made of (a create request or an imported entry). */
export interface NewTemplate {
  name: string;
  description: string;
  content: string;
  language: TemplateLanguage;
  public?: boolean;
  editable?: boolean;
  show_prompt?: boolean;
}

async function insertTemplate(tx: Db | Tx, actor: Actor, input: NewTemplate, ids: { tagIds?: number[]; typeId?: number | null }): Promise<TemplateRow> {
  const [row] = await tx
    .insert(templates)
    .values({
      userId: actor.user.userId,
      // The organization resolved for this request (never a raw organization_id).
      organizationId: actor.organization?.organizationId ?? null,
      name: input.name.trim(),
      description: input.description.trim(),
      content: input.content,
      typeId: ids.typeId ?? null,
      language: input.language,
      public: input.public ?? false,
      editable: input.editable ?? false,
      showPrompt: input.show_prompt ?? false,
    })
    .returning();
  await setTags(tx, row.templateId, ids.tagIds ?? []);
  return row;
}

/** POST /templates: the fields come from the content (spec part 2 §2); `public` by admins only (403). */
export async function createTemplate({ actor, db, input }: Scope & { input: CreateTemplateRequest & { language: TemplateLanguage } }): Promise<TemplateListRow> {
  assertValidDraft(input);
  if (input.public && !isAdmin(actor)) throw refused('template_public_admins_only');
  const row = await db.transaction(async (tx) => insertTemplate(tx, actor, input, await resolveNames(tx, input, 'refuse')));
  return loadTemplate({ actor, db }, row.templateId);
}

/**
 * PUT /templates: owner, admin, or anyone who sees an editable template; the prompt, Editable and Show Prompt
 * only by the owner or staff; `public` by admins only. What is sent changes; the result is checked whole.
 */
export async function updateTemplate({ actor, db, input }: Scope & { input: UpdateTemplateRequest }): Promise<TemplateListRow> {
  const current = await templatePolicy.require(db, actor, input.template_id, 'edit');
  const promptChange =
    (input.content !== undefined && input.content !== current.content) ||
    (input.editable !== undefined && input.editable !== current.editable) ||
    (input.show_prompt !== undefined && input.show_prompt !== current.showPrompt);
  if (promptChange) await templatePolicy.require(db, actor, current.templateId, 'editPrompt').catch(() => Promise.reject(refused('template_prompt_owner_only')));
  if (input.public !== undefined && input.public !== current.public && !isAdmin(actor)) throw refused('template_public_admins_only');
  assertValidDraft({
    name: input.name ?? current.name,
    description: input.description ?? current.description,
    content: input.content ?? current.content,
  });
  await db.transaction(async (tx) => {
    const ids = await resolveNames(tx, input, 'refuse');
    const changes: Partial<typeof templates.$inferInsert> = { updatedAt: new Date() };
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.content !== undefined) changes.content = input.content;
    if (input.language !== undefined) changes.language = input.language;
    if (input.public !== undefined) changes.public = input.public;
    if (input.editable !== undefined) changes.editable = input.editable;
    if (input.show_prompt !== undefined) changes.showPrompt = input.show_prompt;
    if (ids.typeId !== undefined) changes.typeId = ids.typeId;
    await tx.update(templates).set(changes).where(eq(templates.templateId, current.templateId));
    if (ids.tagIds !== undefined) await setTags(tx, current.templateId, ids.tagIds);
  });
  return loadTemplate({ actor, db }, current.templateId);
}

/** DELETE /templates/{id}: owner, admin, or anyone who sees an editable template. */
export async function deleteTemplate({ actor, db, templateId }: Scope & { templateId: number }): Promise<void> {
  const row = await templatePolicy.require(db, actor, templateId, 'delete');
  await db.delete(templates).where(eq(templates.templateId, row.templateId));
}

/** POST /templates/favorite {template_id}: stars or unstars it for the actor. */
export async function toggleFavorite({ actor, db, templateId }: Scope & { templateId: number }): Promise<{ template_id: number; favorite: boolean }> {
  const row = await templatePolicy.require(db, actor, templateId);
  const key = and(eq(templateFavorites.userId, actor.user.userId), eq(templateFavorites.templateId, row.templateId));
  const removed = await db.delete(templateFavorites).where(key).returning({ templateId: templateFavorites.templateId });
  if (removed.length > 0) return { template_id: row.templateId, favorite: false };
  await db.insert(templateFavorites).values({ userId: actor.user.userId, templateId: row.templateId }).onConflictDoNothing();
  return { template_id: row.templateId, favorite: true };
}

/** The values checked against the template's fields (spec part 2 §5 "Applying a template": every value non-empty); 400 otherwise. */
function assertFieldValues(content: string, values: Record<string, string>): TemplateField[] {
  const { fields } = parseTemplateFields(content);
  const problems = checkFieldValues(fields, values);
  const first = Object.values(problems)[0];
  if (first) throw badRequest(first, Object.fromEntries(Object.entries(problems).map(([name, key]) => [`values.${name}`, key])));
  return fields;
}

/**
 * What a user message sent from a template shows in place of a prompt its sender may not read (issue 30 item
 * 9): the template's name, then each field's label with the value given, one a line.
 */
export function templateLabel(name: string, fields: readonly Pick<TemplateField, 'name' | 'label'>[], values: Readonly<Record<string, string>>): string {
  const lines = fields.map((f) => `${f.label}: ${(values[f.name] ?? '').trim()}`).filter((line) => !line.endsWith(': '));
  return [name, ...lines].join('\n');
}

async function recordUse(db: Db, actor: Actor, templateId: number): Promise<Date> {
  const usedAt = new Date();
  await db
    .insert(templateUses)
    .values({ userId: actor.user.userId, templateId, usedAt })
    .onConflictDoUpdate({ target: [templateUses.userId, templateUses.templateId], set: { usedAt } });
  return usedAt;
}

/**
 * POST /templates/{id}/use: the actor applied it now ("Last Used"); with values, each checked and — only for
 * an actor who may read the prompt (owner, staff, or show_prompt: policy.ts canReadPrompt) — the filled
 * prompt returned. Anyone else sends { template_id, values } to POST /messages, which fills it server-side.
 */
export async function useTemplate({
  actor,
  db,
  templateId,
  values,
}: Scope & { templateId: number; values?: Record<string, string> }): Promise<{ template_id: number; usedAt: string; prompt: string | null }> {
  const row = await templatePolicy.require(db, actor, templateId);
  let prompt: string | null = null;
  if (values !== undefined) {
    assertFieldValues(row.content, values);
    if (canReadPrompt(actor, row)) prompt = fillTemplate(row.content, values);
  }
  const usedAt = await recordUse(db, actor, row.templateId);
  return { template_id: row.templateId, usedAt: usedAt.toISOString(), prompt };
}

/** A template filled for a message: what the model is sent, what the chat shows, and whether they differ. */
export interface FilledTemplate {
  templateId: number;
  /** The filled prompt (the model's). */
  prompt: string;
  /** What the message shows: the prompt itself when the actor may read it, else templateLabel. */
  shown: string;
  /** True when the prompt is hidden from the actor (shown ≠ prompt). */
  hidden: boolean;
}

/**
 * POST /messages { template_id, values }: the template (one the actor sees: templates policy, else 404) filled
 * with the checked values, server-side; records the use ("Last Used"). The prompt never returns to a sender
 * who may not read it: the message shows the label instead (issue 30 item 9).
 */
export async function fillTemplateForMessage({ actor, db, templateId, values }: Scope & { templateId: number; values: Record<string, string> }): Promise<FilledTemplate> {
  const row = await templatePolicy.require(db, actor, templateId);
  const fields = assertFieldValues(row.content, values);
  const prompt = fillTemplate(row.content, values);
  await recordUse(db, actor, row.templateId);
  const hidden = !canReadPrompt(actor, row);
  return { templateId: row.templateId, prompt, shown: hidden ? templateLabel(row.name, fields, values) : prompt, hidden };
}

// ---- the admin-managed lists (spec part 2 §6: admins manage tags and types) ----

const isUniqueViolation = (err: unknown) => (err as { code?: string; cause?: { code?: string } })?.code === '23505' || (err as { cause?: { code?: string } })?.cause?.code === '23505';

export async function createTemplateTag({ actor, db, name }: { actor: Actor; db: Db; name: string }): Promise<{ tag_id: number; name: string; count: number }> {
  templateTaxonomyRules.authorize(actor, 'manage', null);
  try {
    const [row] = await db.insert(templateTags).values({ name }).returning();
    return { tag_id: row.tagId, name: row.name, count: 0 };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, ErrorIds.conflict, 'template_tag_exists');
    throw err;
  }
}

export async function createTemplateType({ actor, db, name }: { actor: Actor; db: Db; name: string }): Promise<{ type_id: number; name: string; count: number }> {
  templateTaxonomyRules.authorize(actor, 'manage', null);
  try {
    const [row] = await db.insert(templateTypes).values({ name }).returning();
    return { type_id: row.typeId, name: row.name, count: 0 };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, ErrorIds.conflict, 'template_type_exists');
    throw err;
  }
}

/** Templates lose the tag (their links go with it). */
export async function deleteTemplateTag({ actor, db, tagId }: { actor: Actor; db: Db; tagId: number }): Promise<void> {
  templateTaxonomyRules.authorize(actor, 'manage', null);
  const removed = await db.delete(templateTags).where(eq(templateTags.tagId, tagId)).returning({ id: templateTags.tagId });
  if (removed.length === 0) throw new AppError(404, ErrorIds.notFound, 'not_found');
}

/** Templates of the type are left without a type. */
export async function deleteTemplateType({ actor, db, typeId }: { actor: Actor; db: Db; typeId: number }): Promise<void> {
  templateTaxonomyRules.authorize(actor, 'manage', null);
  const removed = await db.delete(templateTypes).where(eq(templateTypes.typeId, typeId)).returning({ id: templateTypes.typeId });
  if (removed.length === 0) throw new AppError(404, ErrorIds.notFound, 'not_found');
}

export { assertValidDraft, insertTemplate, loadTemplate, refused, resolveNames };
