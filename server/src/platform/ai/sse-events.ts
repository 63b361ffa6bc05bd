// Server-sent events of a provider's streamed answer, read straight off the response body (issue 31 item 2:
// server CPU per answer). The SDK's own stream iterator put every token through four layers of async
// generators (bytes → lines → events → chunks) and copied the buffered bytes at each read; at 100
// answers streaming at once it was the largest part of the server's JavaScript time (bench/chat-cpu.mjs).
// Same reading as the SDK's (openai/core/streaming.mjs): fields `data:` and `event:`, any line ending,
// `[DONE]` ends the data, an `{ error }` payload is the provider's error.

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Splits decoded text into events as it arrives; `push` returns the events completed by the new text. */
export class SseParser {
  #buffer = '';

  push(text: string): SseEvent[] {
    // Lines may end with \r\n or \r (the SSE grammar allows all three): one form for the split below.
    this.#buffer += text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let end = this.#buffer.indexOf('\n\n'); end !== -1; end = this.#buffer.indexOf('\n\n', start)) {
      const event = parseEvent(this.#buffer.slice(start, end));
      if (event) events.push(event);
      start = end + 2;
    }
    if (start > 0) this.#buffer = this.#buffer.slice(start);
    return events;
  }

  /** The last event when the body ends without its blank line. */
  end(): SseEvent[] {
    const rest = this.#buffer;
    this.#buffer = '';
    const event = rest.trim() ? parseEvent(rest) : null;
    return event ? [event] : [];
  }
}

function fieldValue(line: string, prefixLength: number): string {
  return line.charCodeAt(prefixLength) === 32 ? line.slice(prefixLength + 1) : line.slice(prefixLength);
}

/** One event block (its lines without the blank line): null when it carries no data (comments, retry). */
function parseEvent(block: string): SseEvent | null {
  let event: string | null = null;
  let data: string | null = null;
  for (const line of block.split('\n')) {
    if (line.startsWith('data:')) data = data === null ? fieldValue(line, 5) : `${data}\n${fieldValue(line, 5)}`;
    else if (line.startsWith('event:')) event = fieldValue(line, 6);
  }
  return data === null ? null : { event, data };
}
