import { expect, it } from 'vitest';
import { answerCapWords, WordBudget } from './answer-words';
import { countWords } from './token-estimate';

it('holds one word per token of the answer cap', () => {
  expect(answerCapWords(2048)).toBe(2048);
  expect(answerCapWords(30)).toBe(30);
  expect(answerCapWords(0)).toBe(1);
});

/** Feeds `chunks` through a budget of `limit` words; returns what was kept. */
function keep(limit: number, chunks: string[]) {
  const budget = new WordBudget(limit);
  const kept = chunks.map((chunk) => budget.take(chunk)).join('');
  return { kept, budget };
}

it('keeps a text within the limit whole, counting words like countWords', () => {
  const chunks = ['  Hel', 'lo wor', 'ld,\n', '\tagain  '];
  const { kept, budget } = keep(3, chunks);
  expect(kept).toBe(chunks.join(''));
  expect(budget.count).toBe(countWords(kept));
  expect(budget.exhausted).toBe(false);
});

it('cuts at the first word past the limit, also in the middle of a chunk, and keeps a word split across chunks', () => {
  const { kept, budget } = keep(2, ['one tw', 'o three', ' four']);
  expect(kept).toBe('one two ');
  expect(countWords(kept)).toBe(2);
  expect(budget.exhausted).toBe(true);
  expect(budget.take('more')).toBe('');
});

it('never keeps more words than the limit, whatever the chunking', () => {
  const text = 'a bb  ccc\n dddd e\tff g hhh i j ';
  for (let limit = 0; limit <= 11; limit++) {
    for (let size = 1; size <= 5; size++) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
      const { kept } = keep(limit, chunks);
      expect(countWords(kept)).toBe(Math.min(limit, countWords(text)));
      expect(text.startsWith(kept)).toBe(true);
    }
  }
});
