import { describe, expect, it } from 'vitest';
import { SseParser, readEventStream, type SseEvent } from './sse';

const STREAM = 'event: delta\ndata: {"text":"Hola "}\n\n: keep-alive\n\nevent: delta\r\ndata: {"text":"señor ☕"}\r\n\r\nevent: done\ndata: {"message":{"content":"Hola señor ☕"}}\n\n';
const EXPECTED: SseEvent[] = [
  { event: 'delta', data: '{"text":"Hola "}' },
  { event: 'delta', data: '{"text":"señor ☕"}' },
  { event: 'done', data: '{"message":{"content":"Hola señor ☕"}}' },
];

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('SseParser', () => {
  it('parses a whole stream in one chunk', () => {
    expect(new SseParser().push(STREAM)).toEqual(EXPECTED);
  });

  it('gives the same events however the text is split, including between \\r and \\n', () => {
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const events: SseEvent[] = [];
      for (let at = 0; at < STREAM.length; at += size) events.push(...parser.push(STREAM.slice(at, at + size)));
      expect(events, `chunks of ${size}`).toEqual(EXPECTED);
    }
  });

  it('joins multi-line data and ignores an event cut off by the end of the stream', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\ndata: b\n\nevent: delta\ndata: {"text":"lost"}')).toEqual([{ event: 'message', data: 'a\nb' }]);
    expect(parser.end()).toEqual([]);
  });
});

describe('readEventStream', () => {
  it('decodes bytes split inside multi-byte characters', async () => {
    const bytes = new TextEncoder().encode(STREAM);
    // Every 3 bytes: cuts through 'ñ' (2 bytes) and '☕' (3 bytes) somewhere.
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 3) chunks.push(bytes.slice(at, at + 3));
    const events: SseEvent[] = [];
    await readEventStream(streamOf(chunks), (event) => events.push(event));
    expect(events).toEqual(EXPECTED);
  });
});
