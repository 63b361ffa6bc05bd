// Generations run on the server (chat answers and enhancements today; features/messages starts them), independent of the request that started them (DESIGN.md §1.2): this
// registry holds each running one with its AbortController, so a deleted message or conversation, or a
// shutting-down process, can stop it. One registry per app context (tests run several apps at once).
import type { AppContext } from '../../context';
import { registerStoppable } from './stops';

export interface RunningGeneration {
  /** `message:{id}` for an answer, `enhance:{uuid}` for a prompt enhancement. */
  key: string;
  userId: number;
  conversationId: number;
  messageId: number | null;
  controller: AbortController;
  /** Settles when the generation has saved its final state. */
  done: Promise<void>;
}

const registries = new WeakMap<AppContext, Map<string, RunningGeneration>>();

export function generationsOf(ctx: AppContext): Map<string, RunningGeneration> {
  let registry = registries.get(ctx);
  if (!registry) {
    registry = new Map();
    registries.set(ctx, registry);
  }
  return registry;
}

export const messageKey = (messageId: number) => `message:${messageId}`;

/** Starts `run` in the background, tracked until it settles. */
export function track(
  ctx: AppContext,
  entry: Omit<RunningGeneration, 'done' | 'controller'>,
  run: (signal: AbortSignal) => Promise<void>,
): RunningGeneration {
  const registry = generationsOf(ctx);
  const controller = new AbortController();
  const generation: RunningGeneration = { ...entry, controller, done: Promise.resolve() };
  registry.set(entry.key, generation);
  generation.done = run(controller.signal)
    .catch(() => undefined)
    .finally(() => {
      if (registry.get(entry.key) === generation) registry.delete(entry.key);
    });
  // A user's Stop (stops.ts) aborts it with a StoppedByUser reason, from any node.
  registerStoppable(ctx, entry.key, controller, generation.done);
  return generation;
}

/** Message ids this process is writing now (the stale-message sweep leaves them alone). */
export function runningMessageIds(ctx: AppContext): number[] {
  return [...generationsOf(ctx).values()].flatMap((g) => (g.messageId === null ? [] : [g.messageId]));
}

async function abortWhere(ctx: AppContext, match: (g: RunningGeneration) => boolean): Promise<void> {
  const matching = [...generationsOf(ctx).values()].filter(match);
  for (const g of matching) g.controller.abort();
  await Promise.all(matching.map((g) => g.done));
}

export const abortMessageGeneration = (ctx: AppContext, messageId: number) => abortWhere(ctx, (g) => g.messageId === messageId);
export const abortConversationGenerations = (ctx: AppContext, conversationId: number) =>
  abortWhere(ctx, (g) => g.conversationId === conversationId);
/** On shutdown: every generation stops and saves its text as interrupted. */
export const abortAllGenerations = (ctx: AppContext) => abortWhere(ctx, () => true);
/** For tests and shutdown: waits for running generations without stopping them. */
export async function settleGenerations(ctx: AppContext): Promise<void> {
  await Promise.all([...generationsOf(ctx).values()].map((g) => g.done));
}
