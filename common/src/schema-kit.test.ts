import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DB_INT_MAX, id, idParam, isDbId, isoDate, isStorableTimestamp, text } from './schema-kit';

const messagesOf = (result: { success: boolean; error?: z.ZodError }) => result.error?.issues.map((i) => i.message) ?? [];

describe('schema kit', () => {
  it('id: integers from 1 to PostgreSQL integer max, anything else is invalid_id', () => {
    expect(id().parse(1)).toBe(1);
    expect(id().parse(DB_INT_MAX)).toBe(DB_INT_MAX);
    for (const bad of [0, -1, DB_INT_MAX + 1, 1.5, 1e308, Number.NaN, '5', null]) {
      expect(messagesOf(id().safeParse(bad)), String(bad)).toContain('invalid_id');
    }
  });

  it('idParam: text from a path or query, coerced, same range', () => {
    expect(idParam().parse('42')).toBe(42);
    for (const bad of ['2147483648', '9'.repeat(400), '1e308', 'abc', '', '1.5', '-3', ['1', '2']]) {
      expect(idParam().safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it('text: refuses NUL and other control characters, keeps tab and new lines', () => {
    const name = text({ error: 'invalid_name' }).trim().min(1).max(20);
    expect(name.parse(' Ana\tMaría\r\n')).toBe('Ana\tMaría');
    expect(name.parse('👨‍👩‍👧 \u202Eabc')).toBe('👨‍👩‍👧 \u202Eabc');
    for (const bad of ['\u0000', 'a\u0000b', 'a\u0007', '\u001b[31m', 'del\u007f', '\u000b']) {
      expect(messagesOf(name.safeParse(bad)), JSON.stringify(bad)).toContain('text_control_characters');
    }
    // The schema's own message still words a wrong type and its limits.
    expect(messagesOf(name.safeParse(5))).toEqual(['invalid_name']);
  });

  it('text: the rule shows in the JSON schema (and so in the OpenAPI document)', () => {
    expect(z.toJSONSchema(text().max(5))).toMatchObject({ type: 'string', maxLength: 5, pattern: expect.stringContaining('\\u0000') });
  });

  it('isoDate: real days of years 1 to 9999', () => {
    expect(isoDate().parse('2024-02-29')).toBe('2024-02-29');
    expect(isoDate().parse('0001-01-01')).toBe('0001-01-01');
    for (const bad of ['0000-01-01', '10000-01-01', '-0001-01-01', '2023-02-29', '2023-13-01', '2023-1-1', '']) {
      expect(messagesOf(isoDate().safeParse(bad)), bad).toContain('invalid_date');
    }
  });

  it('cursor parts: storable timestamps and ids', () => {
    expect(isStorableTimestamp('2024-05-01T10:00:00.000Z')).toBe(true);
    for (const bad of ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', 'yesterday', '']) expect(isStorableTimestamp(bad), bad).toBe(false);
    expect(isDbId(7)).toBe(true);
    for (const bad of [0, DB_INT_MAX + 1, 1.5, '7', null]) expect(isDbId(bad), String(bad)).toBe(false);
  });
});
