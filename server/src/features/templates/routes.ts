// /api/templates (spec part 2 §7 "Templates"; issue 14 item 2). Thin: authenticate (and resolve the
// organization) → access gate (412 without access, like chat and avatars) → validate → service (scoped by
// policy.ts) → presented with abilities. Tags and types are managed by staff admins (spec part 2 §6).
import {
  createTagRequest,
  createTemplateRequest,
  createTypeRequest,
  deletedTemplateResponse,
  exportTemplatesQuery,
  favoriteRequest,
  favoriteResponse,
  importTemplatesRequest,
  importTemplatesResponse,
  listTemplatesQuery,
  template,
  templateIdParams,
  templateList,
  templateNameParams,
  templateSortFromSetting,
  templateTag,
  templateTagList,
  templateType,
  templateTypeList,
  updateTemplateRequest,
  useResponse,
  useTemplateRequest,
} from '@pluma/common/templates';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { getConfig } from '../../platform/appconfig/read';
import type { Actor } from '../../platform/auth/actor';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { staffAdminWrites } from '../../platform/auth/staff-admin';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { contentDisposition } from '../../platform/http/content-disposition';
import {
  createTemplate,
  createTemplateTag,
  createTemplateType,
  deleteTemplate,
  deleteTemplateTag,
  deleteTemplateType,
  getTemplate,
  listTemplates,
  listTemplateTags,
  listTemplateTypes,
  toggleFavorite,
  updateTemplate,
  useTemplate,
  type ListOptions,
} from './service';
import { presentTemplateRow } from './present';
import { exportTemplates, importTemplates } from './transfer';

const tags = ['templates'];
/** An import file: up to 200 templates of up to 30 000 characters each, as JSON. */
const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;

export async function templateRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const templatesOn = featureGate(app, 'templates_enabled');
  const access = { gates: [templatesOn, accessGate(app)] };
  const admins = staffAdminWrites(templatesOn, accessGate(app));

  /** The query as list options; no sortBy: the `templates_default_sort` setting (spec part 1 §3). */
  const optionsOf = async (query: z.output<typeof listTemplatesQuery>, fixed: Partial<ListOptions> = {}): Promise<ListOptions> => ({
    ...query,
    sortBy: query.sortBy ?? templateSortFromSetting(await getConfig(ctx, 'templates_default_sort')),
    ...fixed,
  });
  const list = { tags, querystring: listTemplatesQuery, response: { 200: templateList } };
  const listed = async (actor: Actor, query: z.output<typeof listTemplatesQuery>, fixed: Partial<ListOptions> = {}) => {
    const { rows, total, ...page } = await listTemplates({ actor, db, options: await optionsOf(query, fixed) });
    return { templates: rows.map((r) => presentTemplateRow(actor, r)), total: total.total, total_capped: total.capped, ...page };
  };

  app.get('/templates', signedIn(app, list, access), async (request) =>
    listed(actorOf(request), request.query),
  );
  app.get('/templates/all', signedIn(app, list, access), async (request) =>
    listed(actorOf(request), request.query),
  );
  app.get('/templates/public', signedIn(app, list, access), async (request) =>
    listed(actorOf(request), request.query, { publicOnly: true }),
  );
  app.get('/templates/tag/:name', signedIn(app, { ...list, params: templateNameParams }, access), async (request) =>
    listed(actorOf(request), request.query, { tag: request.params.name }),
  );
  app.get('/templates/type/:name', signedIn(app, { ...list, params: templateNameParams }, access), async (request) =>
    listed(actorOf(request), request.query, { type: request.params.name }),
  );

  // ---- tags and types (lists for everyone; changes by staff admins, audited) ----

  app.get('/templates/tags', signedIn(app, { tags, response: { 200: templateTagList } }, access), async (request) =>
    listTemplateTags({ actor: actorOf(request), db }),
  );
  app.get('/templates/types', signedIn(app, { tags, response: { 200: templateTypeList } }, access), async (request) =>
    listTemplateTypes({ actor: actorOf(request), db }),
  );
  app.post('/templates/tags', signedIn(app, { tags, body: createTagRequest, response: { 201: templateTag } }, admins), async (request, reply) =>
    reply.status(201).send(await createTemplateTag({ actor: actorOf(request), db, name: request.body.name })),
  );
  app.post('/templates/types', signedIn(app, { tags, body: createTypeRequest, response: { 201: templateType } }, admins), async (request, reply) =>
    reply.status(201).send(await createTemplateType({ actor: actorOf(request), db, name: request.body.name })),
  );
  app.delete('/templates/tags/:id', signedIn(app, { tags, params: templateIdParams, response: { 200: deletedTemplateResponse } }, admins), async (request) => {
    await deleteTemplateTag({ actor: actorOf(request), db, tagId: request.params.id });
    return { deleted: true as const };
  });
  app.delete('/templates/types/:id', signedIn(app, { tags, params: templateIdParams, response: { 200: deletedTemplateResponse } }, admins), async (request) => {
    await deleteTemplateType({ actor: actorOf(request), db, typeId: request.params.id });
    return { deleted: true as const };
  });

  // ---- export and import ----

  app.get('/templates/export', signedIn(app, { tags, querystring: exportTemplatesQuery }, access), async (request, reply) => {
    const file = await exportTemplates({ actor: actorOf(request), db, ids: request.query.ids });
    const name = `templates-${file.exportedAt.slice(0, 10)}.json`;
    return reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', contentDisposition('attachment', name))
      .header('Cache-Control', 'private, no-store')
      .send(JSON.stringify(file, null, 2));
  });
  app.post(
    '/templates/import',
    { ...signedIn(app, { tags, body: importTemplatesRequest, response: { 201: importTemplatesResponse } }, access), bodyLimit: IMPORT_BODY_LIMIT },
    async (request, reply) => {
      const actor = actorOf(request);
      const rows = await importTemplates({ actor, db, file: request.body });
      return reply.status(201).send({ imported: rows.length, templates: rows.map((r) => presentTemplateRow(actor, r)) });
    },
  );

  // ---- one template ----

  app.post('/templates/favorite', signedIn(app, { tags, body: favoriteRequest, response: { 200: favoriteResponse } }, access), async (request) =>
    toggleFavorite({ actor: actorOf(request), db, templateId: request.body.template_id }),
  );
  app.get('/templates/:id', signedIn(app, { tags, params: templateIdParams, response: { 200: template } }, access), async (request) => {
    const actor = actorOf(request);
    return presentTemplateRow(actor, await getTemplate({ actor, db, templateId: request.params.id }));
  });
  app.post('/templates', signedIn(app, { tags, body: createTemplateRequest, response: { 201: template } }, access), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentTemplateRow(actor, await createTemplate({ actor, db, input: request.body })));
  });
  app.put('/templates', signedIn(app, { tags, body: updateTemplateRequest, response: { 200: template } }, access), async (request) => {
    const actor = actorOf(request);
    return presentTemplateRow(actor, await updateTemplate({ actor, db, input: request.body }));
  });
  app.delete('/templates/:id', signedIn(app, { tags, params: templateIdParams, response: { 200: deletedTemplateResponse } }, access), async (request) => {
    await deleteTemplate({ actor: actorOf(request), db, templateId: request.params.id });
    return { deleted: true as const };
  });
  app.post(
    '/templates/:id/use',
    signedIn(app, { tags, params: templateIdParams, body: useTemplateRequest, response: { 200: useResponse } }, access),
    async (request) => useTemplate({ actor: actorOf(request), db, templateId: request.params.id, values: request.body?.values }),
  );
}
