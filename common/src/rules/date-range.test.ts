import { describe, expect, it } from 'vitest';
import { currentMonthRange, purchasesDefaultRange, rangeBounds } from './date-range';

describe('default date ranges (spec part 1 §9)', () => {
  it('the current month runs from its first to its last day', () => {
    expect(currentMonthRange({ year: 2026, month: 2 })).toEqual({ start_date: '2026-02-01', end_date: '2026-02-28' });
    expect(currentMonthRange({ year: 2024, month: 2 })).toEqual({ start_date: '2024-02-01', end_date: '2024-02-29' });
    expect(currentMonthRange({ year: 2026, month: 12 })).toEqual({ start_date: '2026-12-01', end_date: '2026-12-31' });
  });

  it('the purchases list runs from the start of the month to one month later, across a year end', () => {
    expect(purchasesDefaultRange({ year: 2026, month: 11 })).toEqual({ start_date: '2026-11-01', end_date: '2026-12-01' });
    expect(purchasesDefaultRange({ year: 2026, month: 12 })).toEqual({ start_date: '2026-12-01', end_date: '2027-01-01' });
  });

  it('a range covers its end day whole', () => {
    const { from, until } = rangeBounds({ start_date: '2026-11-01', end_date: '2026-11-30' });
    expect(from.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(until.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});
