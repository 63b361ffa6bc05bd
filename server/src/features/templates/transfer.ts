// Templates to and from a JSON file (issue 14 item 2: "Templates export to and import from a JSON file (one or
// many), so operators can move libraries between installs"). The file holds what a copy needs and nothing
// tied to this install (no ids, authors or organizations): common/src/templates.ts templateExportFile.
import {
  TEMPLATE_EXPORT_FORMAT,
  TEMPLATE_EXPORT_VERSION,
  type ExportedTemplate,
  type TemplateExportFile,
} from '@pluma/common/templates';
import { eq, inArray, sql } from 'drizzle-orm';
import { templateTagLinks, templateTags, templateTypes } from '../../db/schema';
import { badRequest } from '../../platform/http/errors';
import { isAdmin, templatePolicy } from './policy';
import { insertTemplate, loadTemplate, refused, resolveNames, type Scope, type TemplateListRow } from './service';
import { checkTemplateDraft } from '@pluma/common/rules/template-fields';

/**
 * GET /templates/export?ids=: each template must be one the actor sees (404 otherwise) and whose prompt they
 * may read (403 otherwise: a hidden prompt does not leave through a file either). Kept in the order asked.
 */
export async function exportTemplates({ actor, db, ids }: Scope & { ids: number[] }): Promise<TemplateExportFile> {
  const rows = [];
  for (const id of ids) {
    const row = await templatePolicy.require(db, actor, id);
    if (!templatePolicy.can(actor, 'export', row)) throw refused('template_prompt_hidden');
    rows.push(row);
  }
  const templateIds = rows.map((r) => r.templateId);
  const tagRows = await db
    .select({ templateId: templateTagLinks.templateId, name: templateTags.name })
    .from(templateTagLinks)
    .innerJoin(templateTags, eq(templateTags.tagId, templateTagLinks.tagId))
    .where(inArray(templateTagLinks.templateId, templateIds))
    .orderBy(sql`lower(${templateTags.name})`);
  const typeIds = [...new Set(rows.map((r) => r.typeId).filter((t): t is number => t !== null))];
  const typeRows = typeIds.length ? await db.select().from(templateTypes).where(inArray(templateTypes.typeId, typeIds)) : [];
  const typeName = new Map(typeRows.map((t) => [t.typeId, t.name]));
  return {
    format: TEMPLATE_EXPORT_FORMAT,
    version: TEMPLATE_EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    templates: rows.map(
      (r): ExportedTemplate => ({
        name: r.name,
        description: r.description,
        content: r.content,
        type: r.typeId === null ? null : (typeName.get(r.typeId) ?? null),
        tags: tagRows.filter((t) => t.templateId === r.templateId).map((t) => t.name),
        language: r.language as ExportedTemplate['language'],
        public: r.public,
        editable: r.editable,
        show_prompt: r.showPrompt,
      }),
    ),
  };
}

/**
 * POST /templates/import: every entry is checked like a save first (400 'Please complete all the required
 * fields to save.' with details `templates.{i}.{input}`; nothing is written); then copies are made for the
 * importer in this context, in one transaction. Admins keep `public` and add unknown tags and types to the
 * lists; anyone else's copies are private and lose tags and types the lists do not have.
 */
export async function importTemplates({ actor, db, file }: Scope & { file: TemplateExportFile }): Promise<TemplateListRow[]> {
  const details: Record<string, string> = {};
  file.templates.forEach((entry, i) => {
    for (const [input, key] of Object.entries(checkTemplateDraft(entry).errors)) details[`templates.${i}.${input}`] = key;
  });
  if (Object.keys(details).length > 0) throw badRequest('template_required_fields', details);
  const admin = isAdmin(actor);
  const ids = await db.transaction(async (tx) => {
    const made: number[] = [];
    for (const entry of file.templates) {
      const names = await resolveNames(tx, { tags: entry.tags, type: entry.type }, admin ? 'create' : 'drop');
      const row = await insertTemplate(tx, actor, { ...entry, public: admin && entry.public }, names);
      made.push(row.templateId);
    }
    return made;
  });
  const rows: TemplateListRow[] = [];
  for (const id of ids) rows.push(await loadTemplate({ actor, db }, id));
  return rows;
}
