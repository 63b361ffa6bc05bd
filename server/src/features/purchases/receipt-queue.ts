// Receipts are rendered a few at a time (PDF rendering is CPU work on the one event loop): beyond
// RECEIPT_LIMITS.concurrent they queue, and beyond the queue the answer is 503 — try again in a moment.
import { AppError } from '../../platform/http/errors';

export const RECEIPT_LIMITS = { concurrent: 2, queued: 16 };

/** 503 when more receipts wait than the queue holds (nothing failed: try again in a moment). */
export const receiptBusy = () => new AppError(503, 'receipt_busy', 'receipt_busy');

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `render` when one of RECEIPT_LIMITS.concurrent slots is free; refuses beyond the queue. */
export async function bounded<T>(render: () => Promise<T>): Promise<T> {
  if (running >= RECEIPT_LIMITS.concurrent) {
    if (waiting.length >= RECEIPT_LIMITS.queued) throw receiptBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await render();
  } finally {
    // The slot passes straight to the next waiter, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
