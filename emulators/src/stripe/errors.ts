// Stripe's error replies: `{ error: { type, code, message, param, decline_code, doc_url, ... } }`
// with the status the SDK maps to its error classes (400/404 invalid request, 401 authentication,
// 402 card error, 409 idempotency conflict).
import { maskKey } from '../http-kit';

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
  payment_method?: unknown;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code, doc_url: docUrl(code) } : {}) });
}

export function missingParam(param: string): StripeApiError {
  return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');
}

/** 404 for an id that does not exist, worded per resource like Stripe ("No such customer: 'cus_x'"). */
export function noSuch(resource: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', doc_url: docUrl('resource_missing'), message: `No such ${resource}: '${id}'`, param });
}

export function cardError(code: string, message: string, extra: Omit<Partial<StripeErrorBody>, 'type' | 'code' | 'message'> = {}): StripeApiError {
  return new StripeApiError(402, { type: 'card_error', code, message, doc_url: docUrl(code), ...extra });
}

export function unexpectedState(message: string, code = 'payment_intent_unexpected_state'): StripeApiError {
  return invalidRequest(message, undefined, code);
}

export function authError(key: string, publishableOnSecretRoute = false): StripeApiError {
  if (publishableOnSecretRoute) {
    return new StripeApiError(401, { type: 'invalid_request_error', message: 'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.' });
  }
  return new StripeApiError(401, {
    type: 'invalid_request_error',
    message: key
      ? `Invalid API Key provided: ${maskKey(key)}`
      : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
  });
}

export function idempotencyMismatch(key: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}
