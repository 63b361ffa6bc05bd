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

  it('reads \\r\\n and \\r line endings (split between \\r and \\n too), event names, several data lines, and skips comments', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\r\n\r\nevent: error\r')).toEqual([]);
    const events = parser.push('\ndata: {"error":\rdata:{"message":"x"}}\r\rdata: next\n\n');
    expect(events).toEqual([
      { event: 'error', data: '{"error":\n{"message":"x"}}' },
      { event: null, data: 'next' },
    ]);
  });

  it('drops an event the body ends before its blank line, as the SSE grammar does', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"b":1}\n\ndata: {"b":2}\n')).toEqual([{ event: null, data: '{"b":1}' }]);
    expect(parser.end()).toEqual([]);
  });
});
