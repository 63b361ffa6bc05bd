// A value that did not come through a route's body schema — a multipart form's JSON part or fields, or a
// request rewritten into another one — checked like a body schema would be: 400 with the first issue's
// message (issues' messages are message keys) and every field's in `details`.
import { serverMessages, type MessageKey } from '@pluma/common/messages';
import type { z } from 'zod';
import { badRequest } from './errors';

export function parseForm<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key: MessageKey = Object.hasOwn(serverMessages.en, issue.message) ? (issue.message as MessageKey) : 'validation_error';
    details[issue.path.join('.') || '_'] ??= key;
  }
  throw badRequest(Object.values(details)[0] as MessageKey, details);
}

/** A form's JSON text part (e.g. `data`), parsed; absent is `{}`, broken JSON a 400 'validation_error'. */
export function parseJsonPart(value: string | undefined): unknown {
  if (value === undefined) return {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw badRequest('validation_error');
  }
}
