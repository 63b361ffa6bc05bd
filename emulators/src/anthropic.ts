// Anthropic Messages wire protocol, so the official `@anthropic-ai/sdk` runs unchanged:
// POST /v1/messages (stream and not) and GET /v1/models.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkContentBlocks } from './anthropic-documents';
import { planAnswer, type PlannedAnswer } from './answer';
import { contentText, randomId, sendJson, sseFrame, type EmulatorOptions, type RunningEmulator } from './http-kit';
import { bearerKey, messageTurns, requestPath, startProviderEmulator, type ProviderRuntime } from './provider-server';

const DEFAULT_MODELS = ['claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-opus-4-6'];

/** Anthropic's error type for a status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

const DEFAULT_MESSAGES: Record<string, string> = {
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit.',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
  timeout_error: 'Request timed out',
};

export function anthropicError(status: number, message?: string) {
  const type = anthropicErrorType(status);
  return { type: 'error', error: { type, message: message ?? DEFAULT_MESSAGES[type] ?? `Request failed with status ${status}.` } };
}

export function startAnthropicEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startProviderEmulator(options, { defaultModels: DEFAULT_MODELS, basePath: '', requestIdHeader: 'request-id', handler: anthropicHandler });
}

function anthropicHandler(runtime: ProviderRuntime) {
  const { stats, models, tokenDelayMs } = runtime;
  const fail = (res: ServerResponse, status: number, message?: string) => runtime.sendError(res, status, anthropicError(status, message));

  const authorized = (req: IncomingMessage, res: ServerResponse): boolean => {
    const key = (req.headers['x-api-key'] as string | undefined)?.trim() || bearerKey(req);
    if (runtime.acceptsKey(key)) return true;
    fail(res, 401, key ? 'invalid x-api-key' : 'x-api-key header is required');
    return false;
  };

  const stopReason = (plan: PlannedAnswer) => (plan.finishReason === 'length' ? 'max_tokens' : 'end_turn');

  const complete = (res: ServerResponse, model: string, plan: PlannedAnswer) =>
    runtime.sendAnswer(res, plan, {
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: plan.tokens.join('') }],
      stop_reason: stopReason(plan),
      stop_sequence: null,
      usage: { input_tokens: plan.promptTokens, output_tokens: plan.tokens.length, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });

  const stream = async (res: ServerResponse, model: string, plan: PlannedAnswer) => {
    const event = (name: string, data: Record<string, unknown>) => sseFrame({ type: name, ...data }, name);
    runtime.startStream(res);
    res.write(
      event('message_start', {
        message: {
          id: randomId('msg_'),
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: plan.promptTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      }),
    );
    res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    res.write(event('ping', {}));
    const finished = await runtime.streamPlannedTokens(
      res,
      plan,
      (token) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: token } }),
      // Anthropic reports failures after the 200 header as an `error` event (e.g. overloaded).
      () => sseFrame(anthropicError(529), 'error'),
    );
    if (!finished) return;
    res.write(event('content_block_stop', { index: 0 }));
    res.write(event('message_delta', { delta: { stop_reason: stopReason(plan), stop_sequence: null }, usage: { output_tokens: plan.tokens.length } }));
    res.end(event('message_stop', {}));
    stats.completed++;
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = requestPath(req);
    if (req.method === 'GET' && path === '/v1/models') {
      if (!authorized(req, res)) return;
      const data = models.map(modelEntry);
      return sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }
    if (path !== '/v1/messages') return fail(res, 404, `Not found: ${req.method} ${path}`);
    if (req.method !== 'POST') return fail(res, 405, `Method not allowed: ${req.method} ${path}`);
    if (!authorized(req, res)) return;
    if (!req.headers['anthropic-version']) return fail(res, 400, 'anthropic-version: header is required');

    const body = await runtime.readGenerationBody(req, (message) => fail(res, 400, message));
    if (!body) return;

    const model = typeof body.model === 'string' ? body.model : '';
    if (!model) return fail(res, 400, 'model: Field required');
    if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
      return fail(res, 400, 'max_tokens: Field required');
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) return fail(res, 400, 'messages: at least one message is required');
    if (!runtime.servesModel(model)) return fail(res, 404, `model: ${model}`);

    const blocks = checkContentBlocks(body.messages);
    if (blocks) return fail(res, 400, blocks);
    const turns = messageTurns(body.messages, (role) => (role === 'assistant' ? 'assistant' : 'user'));
    const invalid = turns.findIndex((turn) => !turn.content.trim());
    if (invalid >= 0) return fail(res, 400, `messages.${invalid}: all messages must have non-empty content`);
    const system = contentText(body.system);
    const plan = planAnswer(system ? [{ role: 'system', content: system }, ...turns] : turns, { maxTokens: body.max_tokens, defaultDelayMs: tokenDelayMs() });
    const forced = runtime.forcedStatus(plan);
    if (forced != null) return fail(res, forced);

    if (body.stream === true) return stream(res, model, plan);
    return complete(res, model, plan);
  };
}

function modelEntry(id: string) {
  return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
}
