// One mapping from a failed call to what the user sees (spec part 1 §8 "Generic alert", part 2 §8
// "Generic handler"). Pure, so each rule is unit-tested; useErrorHandler() carries out the outcome.
import { ErrorIds } from '@pluma/common/errors';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/api-error';
import { localizeServerText } from './server-text';

export type ErrorOutcome =
  | { kind: 'ignore' }
  | { kind: 'alert'; message: string }
  /** Premium or limit error: close any modal and go to /sorry. */
  | { kind: 'sorry' };

export interface ErrorHandlingOptions {
  /** spec part 2 §8: for avatars a 412 is shown as a message instead of going to /sorry. */
  premiumAsMessage?: boolean;
  /** Show 400/401 errors too (screens that have no per-field display of their own). */
  showValidation?: boolean;
}

/** Messages that name HTTP 400 or 401 are suppressed by the generic alert (spec part 1 §8). */
const SUPPRESSED_STATUS = /\b40[01]\b/;
/** Errors that carry a `code` without being an AI provider's: outbound calls, and sso_required (its provider's id). */
const NOT_AI_ERRORS = new Set<string | undefined>([ErrorIds.outboundRefused, ErrorIds.outboundFailed, ErrorIds.ssoRequired]);

export function describeError(error: unknown, t: TFunction, options: ErrorHandlingOptions = {}): ErrorOutcome {
  if (error instanceof DOMException && error.name === 'AbortError') return { kind: 'ignore' };
  if (error instanceof ApiError) {
    if (error.status === 412) {
      return options.premiumAsMessage ? { kind: 'alert', message: t('errors.premium') } : { kind: 'sorry' };
    }
    const body = error.body;
    // spec part 2 §8: an AI-provider error (it carries the provider's own code) is prefixed with its source.
    // Outbound calls to a configured URL (a product's webhook…) also carry a code, but are no AI provider's.
    if (body && (body.provider || body.code !== undefined) && !NOT_AI_ERRORS.has(body.error)) {
      const prefix = body.provider === 'anthropic' ? t('errors.anthropicPrefix') : t('errors.openAiPrefix');
      return { kind: 'alert', message: `${prefix}${body.message || error.message}` };
    }
    if ((error.status === 400 || error.status === 401) && !options.showValidation) return { kind: 'ignore' };
    if (error.isNetworkError) return { kind: 'alert', message: t('errors.network') };
    // The server's message is in the language of the request; one of ours is re-worded in the current one.
    if (body?.message) return { kind: 'alert', message: localizeServerText(body.message) };
    return { kind: 'alert', message: t('errors.generic') };
  }
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (!text) return { kind: 'alert', message: t('errors.generic') };
  if (SUPPRESSED_STATUS.test(text) && !options.showValidation) return { kind: 'ignore' };
  return { kind: 'alert', message: text };
}
