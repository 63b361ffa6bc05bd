// Stopping a generation (issue 30 item 1): a user's Stop ends a generation that runs apart from their
// request (DESIGN.md §1.2), possibly on another node. Each running generation registers its controller here
// under a key ('message:12', 'super-fetch-output:3', 'document-generation:4', 'widget-message:5'); a stop
// aborts it with a StoppedByUser reason, here and, through the realtime server's node messages (Redis
// adapter when REDIS_URL is set), on every other node. The generation tells a user's stop from a shutdown
// by its signal's reason: it keeps its text, is charged for what it wrote and ends as 'stopped'.
import type { AppContext } from '../../context';

/** The abort reason of a user's stop. */
export class StoppedByUser extends Error {
  constructor() {
    super('Stopped by the user.');
    this.name = 'StoppedByUser';
  }
}

export const isStoppedByUser = (signal: AbortSignal): boolean => signal.aborted && signal.reason instanceof StoppedByUser;

/** The node message that carries a stop to the other nodes. */
export const STOP_NODE_EVENT = 'pluma:stop-generation';

interface Stoppable {
  controller: AbortController;
  done: Promise<unknown>;
}

const registries = new WeakMap<object, Map<string, Stoppable>>();

function registryOf(ctx: object): Map<string, Stoppable> {
  let registry = registries.get(ctx);
  if (!registry) registries.set(ctx, (registry = new Map()));
  return registry;
}

/**
 * Makes a running generation stoppable under `key` until `done` settles. Its controller is aborted with a
 * StoppedByUser reason on a stop.
 */
export function registerStoppable(ctx: object, key: string, controller: AbortController, done: Promise<unknown>): void {
  const registry = registryOf(ctx);
  const entry: Stoppable = { controller, done };
  registry.set(key, entry);
  void done.then(
    () => undefined,
    () => undefined,
  ).finally(() => {
    if (registry.get(key) === entry) registry.delete(key);
  });
}

/** Stops the generation under `key` if it runs in this process; resolves once it has ended. */
export async function stopLocally(ctx: object, key: string): Promise<boolean> {
  const entry = registryOf(ctx).get(key);
  if (!entry) return false;
  entry.controller.abort(new StoppedByUser());
  await entry.done.catch(() => undefined);
  return true;
}

/**
 * Stops the generation under `key` wherever it runs. Resolves true when it ran here and has ended (its
 * final state is saved); false when it runs elsewhere (the other nodes were told; the final state arrives
 * over the realtime channel) or no longer runs.
 */
export async function requestStop(ctx: AppContext, key: string): Promise<boolean> {
  if (await stopLocally(ctx, key)) return true;
  ctx.services.realtime?.emitToNodes?.(STOP_NODE_EVENT, key);
  return false;
}

/** Wires the other nodes' stops to this process (the realtime server calls it at start). */
export function listenForStops(ctx: AppContext, on: (event: string, handler: (payload: unknown) => void) => void): void {
  on(STOP_NODE_EVENT, (payload) => {
    if (typeof payload === 'string' && payload.length <= 200) void stopLocally(ctx, payload);
  });
}
