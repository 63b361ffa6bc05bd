// Webhooks configured by an admin (welcome_email_webhook_url, reset_password_email_webhook_url, ...):
// a JSON POST through the outbound guard. A webhook never decides the outcome of the user's action,
// so `notifyWebhook` runs in the background and only logs failures.
import type { Log } from '../log';
import type { AppContext } from '../../context';
import { AppError } from '../http/errors';
import { safeFetch } from './safe-fetch';
import { ErrorIds } from '@pluma/common/errors';

export async function postWebhook(ctx: AppContext, url: string, payload: unknown): Promise<void> {
  const response = await safeFetch(ctx, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  if (!response.ok) {
    throw new AppError(502, ErrorIds.outboundFailed, 'outbound_request_failed', {}, { code: response.status });
  }
}

/** Fire-and-forget: returns at once; the returned promise settles when the call is done (tests await it). */
export function notifyWebhook(
  ctx: AppContext,
  log: Pick<Log, 'warn' | 'info'>,
  event: string,
  url: string | null | undefined,
  payload: Record<string, unknown>,
): Promise<void> {
  if (!url) return Promise.resolve();
  return postWebhook(ctx, url, { event, ...payload }).then(
    () => log.info({ event }, 'webhook delivered'),
    (err: unknown) => {
      const code = err instanceof AppError ? `${err.errorId}${err.extra.code ? ` (${err.extra.code})` : ''}` : String(err);
      log.warn({ event, code }, 'webhook failed');
    },
  );
}
