// Building blocks for request schemas: ids, text and dates that PostgreSQL can always store and compare.
// Bad input is refused here with a translated message (messages.ts) instead of failing in the database
// (docs/decisions.md "Bad input"). Use them for every id, text and date a request carries.
import { z } from 'zod';
import type { MessageKey } from './messages';

/** PostgreSQL's `integer` (serial ids): larger values fail in the database, so they are refused up front. */
export const DB_INT_MAX = 2_147_483_647;

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. PostgreSQL cannot store NUL
 * in text at all, and the others have no business in names, prompts or settings, so text holding any is
 * refused (not silently cleaned: the sender learns what was wrong).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- as above; a pattern (not a refine) so the OpenAPI document shows it
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;

export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTERS.test(value);

/** A record id in a JSON body: an integer from 1 to DB_INT_MAX. */
export const id = (params: { error?: MessageKey } = {}) => {
  const error = params.error ?? 'invalid_id';
  return z.number({ error }).int({ error }).min(1, { error }).max(DB_INT_MAX, { error });
};

/** A record id in a path or query string (text there): coerced, then the same range as `id`. */
export const idParam = (params: { error?: MessageKey } = {}) => {
  const error = params.error ?? 'invalid_id';
  return z.coerce.number({ error }).int({ error }).min(1, { error }).max(DB_INT_MAX, { error });
};

/**
 * Text without control characters (tab, line feed and carriage return are fine). `error` words a value that
 * is not a string; chain `.trim()`, `.min()` and `.max()` as usual. The control check runs on the text as
 * sent, before any trim.
 */
export const text = (params: { error?: MessageKey } = {}) =>
  z.string(params.error ? { error: params.error } : undefined).regex(NO_CONTROL_CHARACTERS, { error: 'text_control_characters' });

/** Year 1 to 9999 (what an ISO date has room for and PostgreSQL's date and timestamp hold). */
const yearInRange = (value: string) => {
  const year = Number(/^(-?\d+)-/.exec(value)?.[1] ?? Number.NaN);
  return year >= 1 && year <= 9999;
};

/** A calendar date `YYYY-MM-DD`, a real day of a year from 1 to 9999. */
export const isoDate = (params: { error?: MessageKey } = {}) => {
  const error = params.error ?? 'invalid_date';
  return z.iso.date({ error }).refine(yearInRange, { error });
};

/** Whether a timestamp text (e.g. from a list cursor) parses and falls within years 1 to 9999. */
export function isStorableTimestamp(value: string): boolean {
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** Whether a number is a valid record id (for ids read out of opaque cursors). */
export const isDbId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= DB_INT_MAX;
