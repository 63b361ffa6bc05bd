import { describe, expect, it } from 'vitest';
import { nameFromPrompt, NAME_FROM_PROMPT_MAX } from './conversation-name';

describe('nameFromPrompt', () => {
  it('keeps a short prompt whole, trimmed and on one line', () => {
    expect(nameFromPrompt('  Ideas for my\n\ngarden   blog  ')).toBe('Ideas for my garden blog');
  });

  it('cuts a long prompt on a word boundary within the limit, with an ellipsis', () => {
    const prompt = 'Write a friendly newsletter for our customers about the spring collection and the new shop';
    const name = nameFromPrompt(prompt);
    expect(name.length).toBeLessThanOrEqual(NAME_FROM_PROMPT_MAX);
    expect(name).toBe('Write a friendly newsletter for our customers about the…');
    expect(prompt.startsWith(name.slice(0, -1))).toBe(true);
  });

  it('drops punctuation left at the cut and cuts mid-word only when a word is very long', () => {
    expect(nameFromPrompt('Summarize this, please: the quarterly report, the budget, and the roadmap for next year', 40)).toBe('Summarize this, please: the quarterly…');
    const word = 'x'.repeat(80);
    expect(nameFromPrompt(word)).toBe(`${'x'.repeat(NAME_FROM_PROMPT_MAX - 1)}…`);
  });
});
