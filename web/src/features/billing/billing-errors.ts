// A failed billing call as words, kept as the failure and worded when drawn (so a language switch re-words
// it): the server's own message (one of common/messages.ts, re-worded in the current language), else ours.
import { translate } from '@pluma/common/messages';
import { ApiError } from '../../api/api-error';
import { currentLanguage } from '../../i18n';
import { serverFieldError } from '../../ui/call-error-text';
import { localizeServerText } from '../../ui/server-text';

/** `t` of the billing namespace. */
export { callErrorText as billingErrorText } from '../../ui/call-error-text';

/** A 400's text for the reason field, if the server named it. */
export const reasonFieldError = (error: unknown) => serverFieldError(error, 'cancel_reason');

/**
 * A failed card removal: the server's refusal as it worded it (e.g. the card pays a subscription), else the
 * spec's "Deleting a payment source fails" text (part 1 §8; common/messages.ts, in the current language).
 */
export function cardRemovalErrorText(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError && error.body?.message && error.status !== 500) return localizeServerText(error.body.message);
  return translate(currentLanguage(), 'payment_source_delete_failed');
}
