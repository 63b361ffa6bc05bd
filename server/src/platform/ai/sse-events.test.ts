// The streamed body of a provider's answer, read as the SDK reads it (sse-events.ts).
import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-events';

describe('SseParser', () => {
  it('gives each event once its blank line arrives, whatever the chunks split', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"a":')).toEqual([]);
    expect(parser.push('1}\n')).toEqual([]);
    expect(parser.push('\ndata: [DONE]\n\n')).toEqual([
      { event: null, data: '{"a":1}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('reads \\r\\n and \\r line endings, event names, several data lines, and skips comments', () => {
    const parser = new SseParser();
    const events = parser.push(': keep-alive\r\n\r\nevent: error\r\ndata: {"error":\rdata:{"message":"x"}}\r\r');
    expect(events).toEqual([{ event: 'error', data: '{"error":\n{"message":"x"}}' }]);
  });

  it('gives the last event at the end of the body even without its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"b":2}\n')).toEqual([]);
    expect(parser.end()).toEqual([{ event: null, data: '{"b":2}' }]);
    expect(parser.end()).toEqual([]);
  });
});
