// A text/event-stream reader for the widget's answers (contract B: `event: delta` data {"text"}, then
// `event: done` or `event: error`). EventSource cannot send a POST body or an Authorization header, so the
// widget reads the stream with fetch; this parser copes with events split anywhere across network chunks,
// including inside a multi-byte character (TextDecoder in streaming mode).

export interface SseEvent {
  event: string;
  data: string;
}

/** Feeds decoded text in, gets whole events out (the WHATWG event-stream format, minus id/retry). */
export class SseParser {
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];
  private pendingCr = false;

  push(text: string): SseEvent[] {
    let input = text;
    // A '\r' ending the last chunk may be half of a '\r\n' split across chunks.
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = input.endsWith('\r');
    this.buffer += input;
    const events: SseEvent[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) this.line(line, events);
    return events;
  }

  /** The stream ended: a last event without its blank line is dropped, as the format says. */
  end(): SseEvent[] {
    this.buffer = '';
    this.eventName = '';
    this.dataLines = [];
    return [];
  }

  private line(line: string, events: SseEvent[]) {
    if (line === '') {
      if (this.dataLines.length) events.push({ event: this.eventName || 'message', data: this.dataLines.join('\n') });
      this.eventName = '';
      this.dataLines = [];
      return;
    }
    if (line.startsWith(':')) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') this.dataLines.push(value);
  }
}

/** Reads a response body to its end, calling `onEvent` for each whole event. */
export async function readEventStream(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
    for (const event of parser.push(decoder.decode())) onEvent(event);
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
