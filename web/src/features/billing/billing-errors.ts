// A failed billing call as words, kept as the failure and worded when drawn (so a language switch re-words
// it): the server's own message (one of common/messages.ts, re-worded in the current language), else ours.
import { translate } from '@pluma/common/messages';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/api-error';
import { currentLanguage } from '../../i18n';
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

/**
 * A failed card removal: the server's refusal as it worded it (e.g. the card pays a subscription), else the
 * spec's "Deleting a payment source fails" text (part 1 §8; common/messages.ts, in the current language).
 */
export function cardRemovalErrorText(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError && error.body?.message && error.status !== 500) return localizeServerText(error.body.message);
  return translate(currentLanguage(), 'payment_source_delete_failed');
}
