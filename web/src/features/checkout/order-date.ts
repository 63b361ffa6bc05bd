// spec part 1 §2 Thank-you / §9: dates show as DD MMM YYYY HH:mm (local time), the month's short name
// in the interface language ("05 Mar 2026 14:07", "05 mar 2026 14:07").
const pad = (n: number) => String(n).padStart(2, '0');

export function formatOrderDate(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const month = new Intl.DateTimeFormat(lang, { month: 'short' }).format(date).replace(/\.$/, '');
  return `${pad(date.getDate())} ${month} ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
