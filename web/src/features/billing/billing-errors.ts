// A failed billing call as words, kept as the failure and worded when drawn (so a language switch re-words
// it): the server's own message (one of common/messages.ts, re-worded in the current language), else ours.
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/api-error';
import { localizeServerText } from '../../ui/server-text';

/** `t` of the billing namespace. */
export function billingErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return t('errors.network');
    if (error.body?.message) return localizeServerText(error.body.message);
  }
  return t('errors.generic');
}

/** A 400's text for the reason field, if the server named it. */
export function reasonFieldError(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const text = error.details.cancel_reason;
  return text ? localizeServerText(text) : null;
}
