import { expect, it } from 'vitest';
import { countWords, estimateTokens } from './token-estimate';

it('estimates tokens as characters / 4 rounded', () => {
  expect(estimateTokens('')).toBe(0);
  expect(estimateTokens('abcdef')).toBe(2);
  expect(estimateTokens('a'.repeat(30_001))).toBe(7500);
  expect(estimateTokens('a'.repeat(30_002))).toBe(7501);
});

it('counts words on whitespace', () => {
  expect(countWords('  hello   world\nagain ')).toBe(3);
  expect(countWords('   ')).toBe(0);
});
