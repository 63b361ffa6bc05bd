// /api/trainings (spec part 2 §7 "Trainings"; issue 13 item 4). Thin: authenticate (and resolve the
// organization) → gates → validate → service → present. Every route needs access (412, as avatars); the ones that
// reach the provider also need the user's own key (409 'ai_key_required'). Another user's training is a
// 404 on every route. Loading these routes registers the training worker and resumes unfinished jobs.
import { deletedResponse } from '@pluma/common/avatars';
import {
  createTrainingRequest,
  listTrainingsQuery,
  publicTrainingList,
  training,
  trainingActionRequest,
  trainingIdParams,
  trainingList,
  updateTrainingRequest,
} from '@pluma/common/trainings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn, type Gate } from '../../platform/auth/guard';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { aiKeyRequired, hasUserAiKey } from '../users';
import { startTrainingWorker, stopTrainingJobs } from './job';
import { presentPublicTraining, presentTraining } from './present';
import {
  createTraining,
  deleteTraining,
  executeTraining,
  getTraining,
  listPublicTrainings,
  listTrainings,
  refineTraining,
  syncTraining,
  updateTraining,
} from './service';

const tags = ['trainings'];
/** Each of these calls the provider (and may upload a file): limited like uploads. */
const providerLimit = { rateLimit: { max: 20, timeWindow: '1 minute' } };

export async function trainingRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  // Running jobs stop before the job queue does; their rows are resumed by the next start.
  app.addHook('preClose', () => stopTrainingJobs(ctx));
  await startTrainingWorker(ctx);

  const aiKeyGate: Gate = async (request) => {
    if (!(await hasUserAiKey({ actor: actorOf(request), db }))) throw aiKeyRequired();
  };
  // Trainings belong to avatars: off with avatars_enabled (docs/decisions.md "Feature switches on the server").
  const avatarsOn = featureGate(app, 'avatars_enabled');
  const access = { gates: [avatarsOn, accessGate(app)] };
  const withKey = { gates: [avatarsOn, accessGate(app), aiKeyGate] };

  app.get('/trainings', signedIn(app, { tags, querystring: listTrainingsQuery, response: { 200: trainingList } }, access), async (request) => {
    const actor = actorOf(request);
    const { rows, total } = await listTrainings({ actor, db, query: request.query });
    return { trainings: rows.map((row) => presentTraining(actor, row)), total };
  });

  app.get('/trainings/public/all', signedIn(app, { tags, querystring: listTrainingsQuery, response: { 200: publicTrainingList } }, access), async (request) => {
    const { rows, total } = await listPublicTrainings({ actor: actorOf(request), db, query: request.query });
    return { trainings: rows.map(presentPublicTraining), total };
  });

  app.get('/trainings/:id', signedIn(app, { tags, params: trainingIdParams, response: { 200: training } }, access), async (request) => {
    const actor = actorOf(request);
    return presentTraining(actor, await getTraining({ actor, db, trainingId: request.params.id }));
  });

  app.post('/trainings', signedIn(app, { tags, body: createTrainingRequest, response: { 201: training } }, withKey), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentTraining(actor, await createTraining({ actor, db, input: request.body })));
  });

  app.put('/trainings', signedIn(app, { tags, body: updateTrainingRequest, response: { 200: training } }, access), async (request) => {
    const actor = actorOf(request);
    return presentTraining(actor, await updateTraining({ actor, db, input: request.body }));
  });

  for (const [path, action] of [
    ['/trainings/execute', executeTraining],
    ['/trainings/sync', syncTraining],
    ['/trainings/refine', refineTraining],
  ] as const) {
    app.post(path, { ...signedIn(app, { tags, body: trainingActionRequest, response: { 200: training } }, withKey), config: providerLimit }, async (request) => {
      const actor = actorOf(request);
      return presentTraining(actor, await action({ ctx, actor, trainingId: request.body.training_id }));
    });
  }

  app.delete('/trainings/:id', signedIn(app, { tags, params: trainingIdParams, response: { 200: deletedResponse } }, access), async (request) => {
    await deleteTraining({ ctx, actor: actorOf(request), trainingId: request.params.id });
    return { deleted: true as const };
  });
}
