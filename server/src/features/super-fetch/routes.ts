// /api/super_fetch (spec part 2 §7 "Super Fetch"; issue 14 item 4). Thin: authenticate → Personal only (404
// with organization_id: not in organization scope) → access gate (412) → validate → service → present.
import {
  superFetchAssistantParams,
  superFetchCleared,
  superFetchFieldsRequest,
  superFetchHistory,
  superFetchHistoryQuery,
  superFetchOutput,
  superFetchRateRequest,
  superFetchRequest,
  superFetchRequestOfFields,
  superFetchRun,
  superFetchStopRequest,
} from '@pluma/common/super-fetch';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { parseForm } from '../../platform/http/parse-form';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { stopAllRuns } from './generate';
import { presentOutput, presentRun } from './present';
import { assertPersonal } from './policy';
import { clearSuperFetchRuns, listSuperFetchRuns, rateSuperFetchOutput, startSuperFetch, stopSuperFetch } from './service';

const tags = ['super-fetch'];
/** Each request is up to 10 provider calls. */
const generationLimit = { rateLimit: { max: 20, timeWindow: '1 minute' } };

const personalOnly = async (request: FastifyRequest) => assertPersonal(actorOf(request));

export async function superFetchRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const gates = { gates: [featureGate(app, 'super_fetch'), personalOnly, accessGate(app)] };

  // Outputs outlive requests but not the process: on close they stop and are saved as failed ('interrupted').
  app.addHook('preClose', () => stopAllRuns(ctx));

  app.post(
    '/super_fetch/v2',
    { ...signedIn(app, { tags, body: superFetchRequest, response: { 202: superFetchRun } }, gates), config: generationLimit },
    async (request, reply) => {
      const { run, outputs } = await startSuperFetch({ ctx, log: request.log, actor: actorOf(request), input: request.body });
      return reply.status(202).send(presentRun(run, outputs));
    },
  );

  // spec part 2 §7: "POST /super_fetch {fields}" — the first version, the form's nine inputs only: the same
  // run as /super_fetch/v2 with one output, checked by v2's own schema (the same messages).
  app.post(
    '/super_fetch',
    { ...signedIn(app, { tags, body: superFetchFieldsRequest, response: { 202: superFetchRun } }, gates), config: generationLimit },
    async (request, reply) => {
      const input = parseForm(superFetchRequest, superFetchRequestOfFields(request.body));
      const { run, outputs } = await startSuperFetch({ ctx, log: request.log, actor: actorOf(request), input });
      return reply.status(202).send(presentRun(run, outputs));
    },
  );

  app.get(
    '/super_fetch/messages/:assistant_id',
    signedIn(app, { tags, params: superFetchAssistantParams, querystring: superFetchHistoryQuery, response: { 200: superFetchHistory } }, gates),
    async (request) => {
      const { runs, outputs, total } = await listSuperFetchRuns({
        db: ctx.db,
        actor: actorOf(request),
        assistantId: request.params.assistant_id,
        limit: request.query.limit,
        offset: request.query.offset,
      });
      return { runs: runs.map((run) => presentRun(run, outputs)), total };
    },
  );

  app.delete(
    '/super_fetch/messages/:assistant_id',
    signedIn(app, { tags, params: superFetchAssistantParams, response: { 200: superFetchCleared } }, gates),
    async (request) => clearSuperFetchRuns({ ctx, actor: actorOf(request), assistantId: request.params.assistant_id }),
  );

  // The user's Stop (issue 30 item 1): the run's outputs still running (or one) end as 'stopped'. Not behind
  // the access gate: a user whose access ended meanwhile can still stop what runs.
  app.post(
    '/super_fetch/stop',
    signedIn(app, { tags, body: superFetchStopRequest, response: { 200: superFetchRun } }, { gates: [featureGate(app, 'super_fetch'), personalOnly] }),
    async (request) => {
      const { run, outputs } = await stopSuperFetch({ ctx, actor: actorOf(request), runId: request.body.run_id, outputId: request.body.output_id });
      return presentRun(run, outputs);
    },
  );

  app.post('/super_fetch/rate', signedIn(app, { tags, body: superFetchRateRequest, response: { 200: superFetchOutput } }, gates), async (request) =>
    presentOutput(await rateSuperFetchOutput({ db: ctx.db, actor: actorOf(request), outputId: request.body.output_id, liked: request.body.liked })),
  );
}
