// Default date ranges (spec part 1 §9): analytics and customers show the current month; the admin
// purchases list shows the start of the current month to one month later. Dates are YYYY-MM-DD, both ends
// inclusive. The caller says which calendar day "today" is (the browser's local day, the server's UTC day).
export interface DateRange {
  start_date: string;
  end_date: string;
}

export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const isoDay = (year: number, month: number, day: number) => {
  // Date.UTC normalizes a month 13 into January of the next year, and day 0 into the month's last day.
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** The first to the last day of the month. */
export function currentMonthRange(today: CalendarDay): DateRange {
  return { start_date: isoDay(today.year, today.month, 1), end_date: isoDay(today.year, today.month + 1, 0) };
}

/** The first day of the month to the same day one month later (spec part 1 §2 "Admin purchases and invoices"). */
export function purchasesDefaultRange(today: CalendarDay): DateRange {
  return { start_date: isoDay(today.year, today.month, 1), end_date: isoDay(today.year, today.month + 1, 1) };
}

/** The instants a range covers: from the start day's midnight (UTC) to the midnight after the end day. */
export function rangeBounds(range: DateRange): { from: Date; until: Date } {
  const from = new Date(`${range.start_date}T00:00:00.000Z`);
  const until = new Date(new Date(`${range.end_date}T00:00:00.000Z`).getTime() + 86_400_000);
  return { from, until };
}

export const utcDay = (now: Date): CalendarDay => ({ year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 });
export const localDay = (now: Date): CalendarDay => ({ year: now.getFullYear(), month: now.getMonth() + 1 });
