// /api/widgets (the owner's chat widgets) and /api/widget/{publicKey}/… (the public widget API); issue 15
// items 3-4, contract B. Owner routes are thin: authenticate → chatwidget_enabled (404 feature_disabled) →
// Personal only (404 in an organization) →
// access gate (412) → validate → policy (another user's widget is 404) → service → present.
import {
  widget as widgetResponse,
  widgetIdParams,
  widgetInput,
  widgetList,
  widgetSessionDetail,
  widgetSessionList,
  widgetSessionParams,
  widgetSessionsQuery,
  widgetUpdate,
} from '@pluma/common/widgets';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { parseForm } from '../../platform/http/parse-form';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { publicBaseUrl } from '../../platform/http/public-url';
import { readWidgetForm } from './multipart-http';
import { assertPersonal } from './policy';
import { presentWidget, presentWidgetMessage, presentWidgetSession } from './present';
import { widgetPublicRoutes } from './public-routes';
import { createWidget, deleteWidget, listWidgets, listWidgetSessions, readWidget, readWidgetSession, rotateWidgetKey, updateWidget } from './service';

const tags = ['widgets'];
const formTypes = ['multipart/form-data', 'application/json'];

const personalOnly = async (request: FastifyRequest) => assertPersonal(actorOf(request));

export async function widgetRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const baseUrl = () => publicBaseUrl(ctx);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [featureGate(app, 'chatwidget_enabled'), personalOnly, accessGate(app)] });
  const present = async (request: FastifyRequest, widgetId: number) => presentWidget(actorOf(request), await readWidget({ db, actor: actorOf(request), widgetId }), baseUrl());

  app.get('/widgets', route({ response: { 200: widgetList } }), async (request) => {
    const actor = actorOf(request);
    return { widgets: (await listWidgets({ db, actor })).map((row) => presentWidget(actor, row, baseUrl())) };
  });

  app.post('/widgets', route({ consumes: formTypes, response: { 201: widgetResponse } }), async (request, reply) => {
    const form = await readWidgetForm(request);
    const input = parseForm(widgetInput, form.widget);
    const created = await createWidget({ ctx, actor: actorOf(request), input, image: form.image });
    return reply.status(201).send(await present(request, created.widgetId));
  });

  app.put('/widgets/:id', route({ params: widgetIdParams, consumes: formTypes, response: { 200: widgetResponse } }), async (request) => {
    const form = await readWidgetForm(request);
    const input = parseForm(widgetUpdate, form.widget);
    const updated = await updateWidget({ ctx, actor: actorOf(request), widgetId: request.params.id, input, image: form.image });
    return present(request, updated.widgetId);
  });

  app.post('/widgets/:id/rotate-key', route({ params: widgetIdParams, response: { 200: widgetResponse } }), async (request) => {
    const rotated = await rotateWidgetKey({ db, actor: actorOf(request), widgetId: request.params.id });
    return present(request, rotated.widgetId);
  });

  app.delete('/widgets/:id', route({ params: widgetIdParams, response: { 200: z.object({ deleted: z.literal(true) }) } }), async (request) => {
    await deleteWidget({ db, actor: actorOf(request), widgetId: request.params.id });
    return { deleted: true as const };
  });

  app.get(
    '/widgets/:id/sessions',
    route({ params: widgetIdParams, querystring: widgetSessionsQuery, response: { 200: widgetSessionList } }),
    async (request) => {
      const { rows, total } = await listWidgetSessions({ db, actor: actorOf(request), widgetId: request.params.id, page: request.query.page });
      return { sessions: rows.map(presentWidgetSession), total, page: request.query.page };
    },
  );

  app.get('/widgets/:id/sessions/:sessionId', route({ params: widgetSessionParams, response: { 200: widgetSessionDetail } }), async (request) => {
    const { session, messages } = await readWidgetSession({ db, actor: actorOf(request), widgetId: request.params.id, sessionId: request.params.sessionId });
    return { session: presentWidgetSession(session), messages: messages.map(presentWidgetMessage) };
  });

  // The public API has its own error shape, origin check and hooks: a scope of its own.
  // Under its own prefix, so its not-found handler and origin hook stay inside /api/widget/ (Fastify applies an
  // unprefixed plugin's not-found handler to every unknown path of the parent).
  await app.register(widgetPublicRoutes, { prefix: '/widget' });
}
