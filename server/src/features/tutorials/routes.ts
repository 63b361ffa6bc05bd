// /api/tutorials (spec part 2 §7 "Tutorials": GET /tutorials?filters, GET /tutorials/{id}; issue 15 item 5
// "staff create, edit, order and delete them"). Thin: authenticate → access gate (412 without access, like
// the other content areas) → staff admin guard for changes (403, audited) → validate → service → presented.
import {
  createTutorialRequest,
  deletedTutorialResponse,
  listTutorialsQuery,
  reorderTutorialsRequest,
  reorderTutorialsResponse,
  tutorial,
  tutorialIdParams,
  tutorialList,
  updateTutorialRequest,
} from '@pluma/common/tutorials';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { staffAdminWrites } from '../../platform/auth/staff-admin';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { presentTutorialRow } from './present';
import { createTutorial, deleteTutorial, getTutorial, listTutorials, reorderTutorials, updateTutorial } from './service';

const tags = ['tutorials'];

export async function tutorialRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tutorialsOn = featureGate(app, 'tutorials_enabled');
  const access = { gates: [tutorialsOn, accessGate(app)] };
  const admins = staffAdminWrites(tutorialsOn);

  app.get('/tutorials', signedIn(app, { tags, querystring: listTutorialsQuery, response: { 200: tutorialList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, ...page } = await listTutorials({ actor, db, options: request.query });
    return { tutorials: rows.map((r) => presentTutorialRow(actor, r)), ...page };
  });
  app.put('/tutorials/order', signedIn(app, { tags, body: reorderTutorialsRequest, response: { 200: reorderTutorialsResponse } }, admins), async (request) => {
    const actor = actorOf(request);
    return { tutorials: (await reorderTutorials({ actor, db, ids: request.body.ids })).map((r) => presentTutorialRow(actor, r)) };
  });
  app.get('/tutorials/:id', signedIn(app, { tags, params: tutorialIdParams, response: { 200: tutorial } }, access), async (request) => {
    const actor = actorOf(request);
    return presentTutorialRow(actor, await getTutorial({ actor, db, tutorialId: request.params.id }));
  });
  app.post('/tutorials', signedIn(app, { tags, body: createTutorialRequest, response: { 201: tutorial } }, admins), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentTutorialRow(actor, await createTutorial({ actor, db, input: request.body })));
  });
  app.put('/tutorials', signedIn(app, { tags, body: updateTutorialRequest, response: { 200: tutorial } }, admins), async (request) => {
    const actor = actorOf(request);
    return presentTutorialRow(actor, await updateTutorial({ actor, db, input: request.body }));
  });
  app.delete('/tutorials/:id', signedIn(app, { tags, params: tutorialIdParams, response: { 200: deletedTutorialResponse } }, admins), async (request) => {
    await deleteTutorial({ actor: actorOf(request), db, tutorialId: request.params.id });
    return { deleted: true as const };
  });
}
