import { describe, expect, it } from 'vitest';
import { composeAnswer, countTokens, parseDirectives, planAnswer, stripDirectives, tokenize } from './answer';

describe('emulated answers', () => {
  it('is deterministic: the same prompt gives the same answer, another prompt another one', () => {
    expect(composeAnswer('Write a post about coffee')).toBe(composeAnswer('Write a post about coffee'));
    expect(composeAnswer('Write a post about coffee')).not.toBe(composeAnswer('Write a post about tea'));
  });

  it('has about 120 words by default and exactly the asked length with [words:N]', () => {
    expect(countTokens(composeAnswer('Hello there'))).toBe(120);
    const plan = planAnswer([{ role: 'user', content: 'Long one [words:800]' }], { maxTokens: null, defaultDelayMs: 0 });
    expect(plan.tokens).toHaveLength(800);
    expect(plan.finishReason).toBe('stop');
  });

  it('contains markdown paragraphs, a list, a table and a code block', () => {
    const text = composeAnswer('Plan a product launch');
    expect(text).toMatch(/^### Plan a product launch/);
    expect(text).toMatch(/^- \*\*\w+\*\*: /m);
    expect(text).toContain('| --- | --- | --- |');
    expect(text).toMatch(/```ts\n[\s\S]+\n```/);
  });

  it('tokenizes into word-plus-space pieces that join back to the text', () => {
    const text = 'One two\n\n- three  four';
    const tokens = tokenize(text);
    expect(tokens).toEqual(['One ', 'two\n\n', '- ', 'three  ', 'four']);
    expect(tokens.join('')).toBe(text);
  });

  it('reads the switches and leaves them out of the answer title', () => {
    expect(parseDirectives('x [error:429] [disconnect:20] [rate:200] [words:5] [stream-error:3] [echo]')).toEqual({
      words: 5,
      error: 429,
      disconnect: 20,
      streamError: 3,
      rate: 200,
      echo: true,
    });
    expect(parseDirectives('[error:200] [words:0]')).toMatchObject({ error: null, words: 1 });
    expect(stripDirectives('Tell me [words:50] about  cats')).toBe('Tell me about cats');
  });

  it('cuts at maxTokens with finish reason length and paces by [rate:N]', () => {
    const plan = planAnswer([{ role: 'user', content: 'Hi [rate:200]' }], { maxTokens: 7, defaultDelayMs: 25 });
    expect(plan.tokens).toHaveLength(7);
    expect(plan.finishReason).toBe('length');
    expect(plan.delayMs).toBe(5);
    expect(planAnswer([{ role: 'user', content: 'Hi [rate:0]' }], { maxTokens: null, defaultDelayMs: 25 }).delayMs).toBe(0);
    expect(planAnswer([{ role: 'user', content: 'Hi' }], { maxTokens: null, defaultDelayMs: 25 }).delayMs).toBe(25);
  });

  it('echoes the transcript with [echo] and reads switches from the last user message only', () => {
    const turns = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'old [error:500]' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'show me [echo]' },
    ];
    const plan = planAnswer(turns, { maxTokens: null, defaultDelayMs: 0 });
    expect(plan.directives.error).toBeNull();
    expect(plan.tokens.join('')).toBe('system: Be brief.\n\nuser: old\n\nassistant: ok\n\nuser: show me');
    expect(plan.promptTokens).toBe(2 + 2 + 1 + 3);
  });

  it("uses the caller's composer (EmulatorOptions.compose) unless the prompt fixes the length or asks for an echo", () => {
    const compose = (turns: { role: string; content: string }[]) => (turns.some((t) => t.content.includes('hola')) ? 'Hola, ¿qué tal?' : null);
    const plan = (content: string) => planAnswer([{ role: 'user', content }], { maxTokens: null, defaultDelayMs: 0, compose }).tokens.join('');
    expect(plan('hola')).toBe('Hola, ¿qué tal?');
    // null: the built-in answer.
    expect(plan('hello')).toBe(composeAnswer('hello'));
    expect(plan('hola [words:5]')).toBe(composeAnswer('hola [words:5]', 5));
    expect(plan('hola [echo]')).toBe('user: hola');
  });
});
