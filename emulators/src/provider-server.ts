// What every AI-provider emulator does the same way around its own wire format: counters, forced
// failures, token pacing, reading the generation request, ending a planned stream, and the
// RunningEmulator handle. Each provider keeps only its paths, validation and JSON shapes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlannedAnswer } from './answer';
import {
  BodyError,
  contentText,
  dropConnection,
  emptyStats,
  FailureQueue,
  listen,
  randomId,
  readJson,
  sendJson,
  startSse,
  writeTokens,
  type EmulatorOptions,
  type EmulatorStats,
  type Handler,
  type RunningEmulator,
} from './http-kit';

/** One emulator instance: its state, and the steps every provider takes the same way, counted in `stats`. */
export interface ProviderRuntime {
  stats: EmulatorStats;
  /** The models served: `options.models`, else the provider's defaults. */
  models: string[];
  /** Current default delay between streamed tokens (`setTokenDelay` changes it). */
  tokenDelayMs(): number;
  /** The status a generation must fail with: the next `failNext` one, else the prompt's `[error:STATUS]`. */
  forcedStatus(plan: PlannedAnswer): number | null;
  /** A non-empty key is accepted; only `options.apiKey` when that is set. */
  acceptsKey(key: string): boolean;
  /** Every model name is served unless `options.models` lists the ones that are. */
  servesModel(model: string): boolean;
  /** Sends a provider error body with the provider's request-id header (and retry-after on 429). */
  sendError(res: ServerResponse, status: number, body: unknown): void;
  /**
   * Reads a generation request's JSON body and records it. When the body is not a JSON object,
   * `invalid` answers with the provider's 400 and the result is null.
   */
  readGenerationBody(req: IncomingMessage, invalid: (message: string) => void): Promise<Record<string, unknown> | null>;
  /** A non-streamed answer: `body` with the request-id header, or a dropped socket for `[disconnect:N]`. */
  sendAnswer(res: ServerResponse, plan: PlannedAnswer, body: unknown): void;
  /** Starts a streamed answer: the SSE headers, with the request-id header. */
  startStream(res: ServerResponse): void;
  /**
   * Streams the planned tokens, one `frame` each, at the planned pace. True when every token went out
   * and the caller should write the provider's closing frames; otherwise the stream is already dealt
   * with: socket dropped (`[disconnect:N]`), client gone, or `errorFrame` sent (`[stream-error:N]`).
   */
  streamPlannedTokens(res: ServerResponse, plan: PlannedAnswer, frame: (token: string) => string, errorFrame: () => string): Promise<boolean>;
}

export interface ProviderDefinition {
  defaultModels: string[];
  /** Appended to the origin for `RunningEmulator.url` (what the provider's SDK takes as `baseURL`). */
  basePath: string;
  /** The response header that carries the request id (`x-request-id`, `request-id`). */
  requestIdHeader: string;
  handler(runtime: ProviderRuntime): Handler;
}

export async function startProviderEmulator(options: EmulatorOptions, provider: ProviderDefinition): Promise<RunningEmulator> {
  const stats = emptyStats();
  const failures = new FailureQueue();
  let tokenDelayMs = options.tokenDelayMs ?? 0;
  const models = options.models ?? provider.defaultModels;
  const runtime: ProviderRuntime = {
    stats,
    models,
    tokenDelayMs: () => tokenDelayMs,
    forcedStatus: (plan) => failures.take() ?? plan.directives.error,
    acceptsKey: (key) => Boolean(key) && (!options.apiKey || key === options.apiKey),
    servesModel: (model) => !options.models || models.includes(model),
    sendError: (res, status, body) => {
      stats.errors++;
      const headers: Record<string, string> = { [provider.requestIdHeader]: randomId('req_') };
      if (status === 429) headers['retry-after'] = '20';
      sendJson(res, status, body, headers);
    },
    readGenerationBody: (req, invalid) => readGenerationBody(req, stats, invalid),
    sendAnswer: (res, plan, body) => {
      if (plan.directives.disconnect != null) {
        stats.disconnects++;
        dropConnection(res);
        return;
      }
      stats.completed++;
      sendJson(res, 200, body, { [provider.requestIdHeader]: randomId('req_') });
    },
    startStream: (res) => {
      stats.streams++;
      startSse(res, { [provider.requestIdHeader]: randomId('req_') });
    },
    streamPlannedTokens: (res, plan, frame, errorFrame) => streamPlannedTokens(res, stats, plan, frame, errorFrame),
  };
  const handle = provider.handler(runtime);
  const server = await listen((req, res) => {
    stats.requests++;
    return handle(req, res);
  }, options);
  return {
    url: `${server.origin}${provider.basePath}`,
    origin: server.origin,
    port: server.port,
    stats,
    failNext: (status, times = 1) => failures.push(status, times),
    setTokenDelay: (ms) => {
      tokenDelayMs = ms;
    },
    resetStats: () => Object.assign(stats, emptyStats()),
    close: server.close,
  };
}

/** The request path without query string or trailing slashes. */
export function requestPath(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
}

/** The key of an `Authorization: Bearer KEY` header, or ''. */
export function bearerKey(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  return header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
}

/** The conversation turns of a request's `messages`: the text of each, and the role `roleOf` gives it. */
export function messageTurns(messages: unknown[], roleOf: (role: unknown) => string): { role: string; content: string }[] {
  return messages.map((m) => {
    const message = (m ?? {}) as { role?: unknown; content?: unknown };
    return { role: roleOf(message.role), content: contentText(message.content) };
  });
}

async function readGenerationBody(
  req: IncomingMessage,
  stats: EmulatorStats,
  invalid: (message: string) => void,
): Promise<Record<string, unknown> | null> {
  let body: Record<string, unknown>;
  try {
    body = await readJson(req);
  } catch (error) {
    invalid(error instanceof BodyError ? error.message : 'Invalid body.');
    return null;
  }
  stats.generations++;
  stats.lastRequest = body;
  stats.lastHeaders = { ...req.headers };
  return body;
}

async function streamPlannedTokens(
  res: ServerResponse,
  stats: EmulatorStats,
  plan: PlannedAnswer,
  frame: (token: string) => string,
  errorFrame: () => string,
): Promise<boolean> {
  const outcome = await writeTokens(
    res,
    plan.tokens,
    { delayMs: plan.delayMs, disconnectAfter: plan.directives.disconnect, streamErrorAfter: plan.directives.streamError },
    frame,
  );
  switch (outcome) {
    case 'disconnected':
      stats.disconnects++;
      dropConnection(res);
      return false;
    case 'client-gone':
      stats.clientAborts++;
      return false;
    case 'stream-error':
      stats.errors++;
      res.end(errorFrame());
      return false;
    case 'done':
      return true;
  }
}
