// Server-sent events of a provider's streamed answer, read straight off the response body (issue 31 item 2:
// server CPU per answer). The SDK's own stream iterator put every token through four layers of async
// generators (bytes → lines → events → chunks) and copied the buffered bytes at each read; at 100 answers
// streaming at once it was the largest part of the server's JavaScript time (bench/chat-cpu.mjs). The events
// are parsed by `eventsource-parser` (the SSE grammar: any line ending, split anywhere, comments, several data
// lines); openai-chat.ts reads them as the SDK does: `[DONE]` ends the data, an `{ error }` payload is the
// provider's error.
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Turns decoded text into events as it arrives; `push` returns the events the new text completed. */
export class SseParser {
  #events: SseEvent[] = [];
  readonly #parser: EventSourceParser = createParser({ onEvent: (message) => this.#events.push({ event: message.event ?? null, data: message.data }) });

  push(text: string): SseEvent[] {
    this.#parser.feed(text);
    return this.#take();
  }

  /** The body ended: an event without its closing blank line is dropped, as the SSE grammar (and the SDK) do. */
  end(): SseEvent[] {
    this.#parser.reset({ consume: true });
    return this.#take();
  }

  #take(): SseEvent[] {
    const events = this.#events;
    if (events.length > 0) this.#events = [];
    return events;
  }
}
