// OpenAI Chat Completions wire protocol (also spoken by xAI and OpenAI-compatible servers), so the
// official `openai` SDK runs unchanged: POST /v1/chat/completions (stream and not) and GET /v1/models.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { planAnswer, type PlannedAnswer } from './answer';
import { handleEmbeddings } from './openai-embeddings';
import { createFineTuning } from './openai-fine-tuning';
import { BodyError, maskKey, randomId, readJson, sendJson, sseFrame, type EmulatorOptions, type RunningEmulator } from './http-kit';
import { bearerKey, messageTurns, requestPath, startProviderEmulator, type ProviderRuntime } from './provider-server';

const DEFAULT_MODELS = ['gpt-4o-mini', 'grok-2-latest', 'demo'];

interface OpenAiErrorShape {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** The error body OpenAI sends for a status, with its usual type and code. */
export function openAiError(status: number, detail: { message?: string; model?: string; key?: string } = {}): OpenAiErrorShape {
  const base = { param: null };
  switch (status) {
    case 400:
      return { ...base, message: detail.message ?? 'Invalid request.', type: 'invalid_request_error', code: null };
    case 401:
      return detail.key
        ? { ...base, message: `Incorrect API key provided: ${maskKey(detail.key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', code: 'invalid_api_key' }
        : { ...base, message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", type: 'invalid_request_error', code: null };
    case 403:
      return { ...base, message: 'Country, region, or territory not supported', type: 'request_forbidden', code: 'unsupported_country_region_territory' };
    case 404:
      return { ...base, message: `The model \`${detail.model ?? 'unknown'}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' };
    case 429:
      return { ...base, message: `Rate limit reached for ${detail.model ?? 'gpt-4o-mini'} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`, type: 'requests', code: 'rate_limit_exceeded' };
    case 503:
      return { ...base, message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null };
    default:
      return status >= 500
        ? { ...base, message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null }
        : { ...base, message: detail.message ?? `Request failed with status ${status}.`, type: 'invalid_request_error', code: null };
  }
}

export function startOpenAiEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startProviderEmulator(options, { defaultModels: DEFAULT_MODELS, basePath: '/v1', requestIdHeader: 'x-request-id', handler: (runtime) => openAiHandler(runtime, options.compose) });
}

function openAiHandler(runtime: ProviderRuntime, compose: EmulatorOptions['compose']) {
  const { stats, models, tokenDelayMs } = runtime;
  const fail = (res: ServerResponse, status: number, detail: Parameters<typeof openAiError>[1] = {}) =>
    runtime.sendError(res, status, { error: openAiError(status, detail) });
  // Files and fine-tuning jobs (openai-fine-tuning.ts), kept for the life of this emulator.
  const fineTuning = createFineTuning(fail);

  /** Bearer key check; returns false after answering 401. */
  const authorized = (req: IncomingMessage, res: ServerResponse): boolean => {
    const key = bearerKey(req);
    if (runtime.acceptsKey(key)) return true;
    fail(res, 401, key ? { key } : {});
    return false;
  };

  const complete = (res: ServerResponse, model: string, plan: PlannedAnswer) =>
    runtime.sendAnswer(res, plan, {
      id: randomId('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      system_fingerprint: 'fp_pluma_emulator',
      choices: [{ index: 0, message: { role: 'assistant', content: plan.tokens.join(''), refusal: null }, logprobs: null, finish_reason: plan.finishReason }],
      usage: usage(plan, plan.tokens.length),
    });

  const stream = async (res: ServerResponse, model: string, plan: PlannedAnswer, includeUsage: boolean) => {
    const id = randomId('chatcmpl-');
    const created = Math.floor(Date.now() / 1000);
    // Every chunk carries `usage: null` when usage was asked for; the last chunk then has it (OpenAI's shape).
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
      sseFrame({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: 'fp_pluma_emulator',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(includeUsage ? { usage: null } : {}),
      });
    runtime.startStream(res);
    res.write(chunk({ role: 'assistant', content: '', refusal: null }, null));
    const finished = await runtime.streamPlannedTokens(
      res,
      plan,
      (token) => chunk({ content: token }, null),
      // OpenAI reports failures after the 200 header as a data frame with an `error` object.
      () => sseFrame({ error: openAiError(500) }),
    );
    if (!finished) return;
    res.write(chunk({}, plan.finishReason));
    if (includeUsage) {
      res.write(sseFrame({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_pluma_emulator', choices: [], usage: usage(plan, plan.tokens.length) }));
    }
    res.end(sseFrame('[DONE]'));
    stats.completed++;
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = requestPath(req);
    if (req.method === 'GET' && path === '/v1/models') {
      if (!authorized(req, res)) return;
      return sendJson(res, 200, { object: 'list', data: models.map(modelEntry) });
    }
    if (req.method === 'GET' && path.startsWith('/v1/models/')) {
      if (!authorized(req, res)) return;
      const id = decodeURIComponent(path.slice('/v1/models/'.length));
      if (!runtime.servesModel(id)) return fail(res, 404, { model: id });
      return sendJson(res, 200, modelEntry(id));
    }
    if (path === '/v1/embeddings' && req.method === 'POST') {
      if (!authorized(req, res)) return;
      return handleEmbeddings(req, res, runtime, fail);
    }
    if (path.startsWith('/v1/files') || path.startsWith('/v1/fine_tuning/')) {
      if (!authorized(req, res)) return;
      const readBody = () => readJson(req).catch((error: unknown) => (fail(res, 400, { message: error instanceof BodyError ? error.message : 'Invalid body.' }), null));
      if (await fineTuning.handle(req, res, path, bearerKey(req), readBody)) return;
      return fail(res, 404, { message: `Invalid URL (${req.method} ${path})` });
    }
    if (path !== '/v1/chat/completions') return fail(res, 404, { message: `Invalid URL (${req.method} ${path})` });
    if (req.method !== 'POST') return fail(res, 405, { message: `Invalid method for URL (${req.method} ${path})` });
    if (!authorized(req, res)) return;

    const body = await runtime.readGenerationBody(req, (message) => fail(res, 400, { message }));
    if (!body) return;

    const model = typeof body.model === 'string' ? body.model : '';
    if (!model) return fail(res, 400, { message: 'you must provide a model parameter' });
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return fail(res, 400, { message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead." });
    }
    // A fine-tuned model made here answers its own key only (another key gets OpenAI's model_not_found), and
    // is served even where `options.models` lists the base models; any other name follows that list.
    const owner = fineTuning.modelOwner(model);
    if (owner !== null ? owner !== bearerKey(req) : !runtime.servesModel(model)) return fail(res, 404, { model });
    const maxTokens = numberOrNull(body.max_completion_tokens) ?? numberOrNull(body.max_tokens);
    if (maxTokens != null && maxTokens < 1) return fail(res, 400, { message: "Invalid 'max_tokens': integer below minimum value." });

    const turns = messageTurns(body.messages, (role) => (typeof role === 'string' ? role : 'user'));
    const plan = planAnswer(turns, { maxTokens, defaultDelayMs: tokenDelayMs(), compose });
    const forced = runtime.forcedStatus(plan);
    if (forced != null) return fail(res, forced, { model, key: bearerKey(req) });

    const streamOptions = (body.stream_options ?? {}) as { include_usage?: unknown };
    if (body.stream === true) return stream(res, model, plan, streamOptions.include_usage === true);
    return complete(res, model, plan);
  };
}

function modelEntry(id: string) {
  return { id, object: 'model', created: 1_700_000_000, owned_by: 'pluma-emulator' };
}

function usage(plan: PlannedAnswer, completionTokens: number) {
  return {
    prompt_tokens: plan.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: plan.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : null;
}
