// A new answer's provider request goes out while its prompt and pending row are saved (issue 31 item 2):
// the first token then waits for the slower of the two, not for both one after the other. The stream's
// events are held until the generation takes it over (its row exists: DESIGN.md §4), so no frame goes out
// before the row. If saving fails (no words left, a database error), the request is cancelled unread.

/** A stream started before its generation: taken over once (`take`), or cancelled. */
export interface EarlyStream<E> {
  /** The stream from its first event on; `signal` (the generation's) now aborts the request too. */
  take(signal: AbortSignal): AsyncIterable<E>;
  /** Saving failed: the request is aborted and its outcome ignored. */
  cancel(): void;
}

/** Starts `open(signal)` now: its first event is asked for at once, which sends the request. */
export function startEarly<E>(open: (signal: AbortSignal) => AsyncGenerator<E>): EarlyStream<E> {
  const controller = new AbortController();
  const events = open(controller.signal);
  const first = events.next();
  // Cancelled, or failed before it is taken: the error is the taker's (it awaits `first`), or nobody's.
  first.catch(() => undefined);
  return {
    take(signal) {
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
      return resumed(first, events);
    },
    cancel() {
      controller.abort();
    },
  };
}

/**
 * `events` again, its first event being `first` (already asked for). An iterator, not another generator
 * wrapped around it: each layer of async generator costs every token of every answer a few promises.
 */
function resumed<E>(first: Promise<IteratorResult<E>>, events: AsyncGenerator<E>): AsyncIterable<E> {
  let head: Promise<IteratorResult<E>> | null = first;
  const iterator: AsyncIterator<E> = {
    next() {
      const next = head ?? events.next();
      head = null;
      return next;
    },
    // A consumer that stops early (break) ends the request, even before its first event arrived.
    return() {
      head = null;
      return events.return(undefined);
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
