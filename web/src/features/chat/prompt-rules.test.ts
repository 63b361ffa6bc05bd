import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { canEnhance, canSend, formatCount, isOverTokenLimit, showEnhance } from './prompt-rules';
import { useTokenEstimate } from './use-token-estimate';

const idle = { generating: false, enhancing: false };

describe('send', () => {
  it('is disabled when empty or blank', () => {
    expect(canSend({ ...idle, text: '' })).toBe(false);
    expect(canSend({ ...idle, text: '  \n ' })).toBe(false);
    expect(canSend({ ...idle, text: 'Hi' })).toBe(true);
  });

  it('is disabled over 7500 tokens (characters ÷ 4, rounded)', () => {
    // 30001 characters round to 7500 tokens, 30002 to 7501.
    expect(isOverTokenLimit('a'.repeat(30_001))).toBe(false);
    expect(canSend({ ...idle, text: 'a'.repeat(30_001) })).toBe(true);
    expect(isOverTokenLimit('a'.repeat(30_002))).toBe(true);
    expect(canSend({ ...idle, text: 'a'.repeat(30_002) })).toBe(false);
  });

  it('is disabled while generating or enhancing', () => {
    expect(canSend({ text: 'Hi', generating: true, enhancing: false })).toBe(false);
    expect(canSend({ text: 'Hi', generating: false, enhancing: true })).toBe(false);
  });
});

describe('enhance', () => {
  it('shows only when the text is longer than 12 characters', () => {
    expect(showEnhance('a'.repeat(12))).toBe(false);
    expect(showEnhance('a'.repeat(13))).toBe(true);
  });

  it('is disabled over the limit and while enhancing', () => {
    expect(canEnhance({ ...idle, text: 'a'.repeat(13) })).toBe(true);
    expect(canEnhance({ ...idle, text: 'a'.repeat(30_002) })).toBe(false);
    expect(canEnhance({ text: 'a'.repeat(13), generating: false, enhancing: true })).toBe(false);
  });
});

describe('useTokenEstimate', () => {
  it('shows characters ÷ 4 rounded, 1000 ms after the text stops changing', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ text }) => useTokenEstimate(text), { initialProps: { text: '' } });
    expect(result.current).toBe(0);
    rerender({ text: 'abcdef' });
    act(() => vi.advanceTimersByTime(600));
    rerender({ text: 'abcdefghij' });
    act(() => vi.advanceTimersByTime(600));
    // Still typing: the counter has not moved yet.
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(400));
    expect(result.current).toBe(3);
  });
});

describe('formatCount', () => {
  it('groups thousands with commas', () => {
    expect([0, 12, 999, 1000, 7500, 1234567].map(formatCount)).toEqual(['0', '12', '999', '1,000', '7,500', '1,234,567']);
  });
});
