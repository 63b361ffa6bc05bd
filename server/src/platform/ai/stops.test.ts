import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { isStoppedByUser, registerStoppable, requestStop, stopLocally, StoppedByUser } from './stops';

describe('stopping a generation in this process', () => {
  it('aborts the registered generation with StoppedByUser and waits until it has ended', async () => {
    const ctx = { services: {} } as unknown as AppContext;
    const controller = new AbortController();
    const order: string[] = [];
    const done = new Promise<void>((resolve) =>
      controller.signal.addEventListener('abort', () => setTimeout(() => (order.push('saved'), resolve()), 5)),
    );
    registerStoppable(ctx, 'message:1', controller, done);
    expect(await requestStop(ctx, 'message:1')).toBe(true);
    order.push('answered');
    expect(order).toEqual(['saved', 'answered']);
    expect(isStoppedByUser(controller.signal)).toBe(true);
    expect(controller.signal.reason).toBeInstanceOf(StoppedByUser);
    // Ended: it is no longer stoppable, and another context never saw it.
    await Promise.resolve();
    expect(await stopLocally(ctx, 'message:1')).toBe(false);
  });

  it('keeps contexts apart and tells a shutdown from a stop', async () => {
    const a = { services: {} } as unknown as AppContext;
    const b = { services: {} } as unknown as AppContext;
    const controller = new AbortController();
    registerStoppable(a, 'message:2', controller, new Promise(() => undefined));
    expect(await requestStop(b, 'message:2')).toBe(false);
    expect(controller.signal.aborted).toBe(false);
    controller.abort();
    expect(isStoppedByUser(controller.signal)).toBe(false);
  });
});
