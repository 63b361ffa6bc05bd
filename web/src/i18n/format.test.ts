// Numbers and dates follow the interface language (issue 30 item 7), and only format.ts formats them:
// a raw toLocaleString( or a hard-coded 'en-US' elsewhere in web/src fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCurrency, formatNumber, formatSpecDateTime, formatSpecDay } from './format';

// Under jsdom import.meta.url is not a file URL: find web/src from the working directory (root or web/).
const srcDir = ['web/src', 'src'].map((p) => path.resolve(p)).find((p) => existsSync(path.join(p, 'i18n', 'format.ts'))) ?? '';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

// Files other branches own (issue 30); to move to format.ts when they are merged.
const KNOWN = new Set(['features/avatars/RefineStatus.tsx']);

describe('format', () => {
  it('formats numbers in the interface language', () => {
    expect(formatNumber(7500, 'en')).toBe('7,500');
    expect(formatNumber(7500, 'es')).toBe('7500');
    expect(formatNumber(1234567, 'es')).toBe('1.234.567');
    expect(formatCurrency(1234.5, 'en')).toBe('$1,234.50');
  });

  it('writes the spec date format DD MMM YYYY HH:mm with the month in the language', () => {
    const date = new Date(2026, 2, 5, 14, 7);
    expect(formatSpecDateTime(date, 'en')).toBe('05 Mar 2026 14:07');
    expect(formatSpecDateTime(date, 'es')).toBe('05 mar 2026 14:07');
    expect(formatSpecDay(date.toISOString(), 'en')).toBe('05 Mar 2026');
    expect(formatSpecDateTime('not a date', 'en')).toBe('');
  });

  it('is the only place in web/src that formats numbers and dates by hand', () => {
    const offenders = sourceFiles(srcDir)
      .map((file) => path.relative(srcDir, file).split(path.sep).join('/'))
      .filter((file) => file !== 'i18n/format.ts' && !KNOWN.has(file))
      .filter((file) => /toLocaleString\(|toLocaleDateString\(|toLocaleTimeString\(|['"]en-US['"]|['"]es-MX['"]/.test(readFileSync(path.join(srcDir, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
