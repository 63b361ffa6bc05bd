// PayPal's error shape: `{ name, message, debug_id, details: [{ field?, value?, location?, issue,
// description }], links: [{ href, rel: 'information_link' }] }`, with its statuses (400
// INVALID_REQUEST, 401 AUTHENTICATION_FAILURE, 404 RESOURCE_NOT_FOUND, 422 UNPROCESSABLE_ENTITY).
// The server adds `debug_id` when it sends the error.

export interface ErrorDetail {
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
  issue: string;
  description: string;
}

/** Which API reference an error's information link points into. */
export type ApiName = 'orders/v2' | 'payments/v2' | 'catalog-products/v1' | 'subscriptions/v1' | 'webhooks/v1';

export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly body: { name: string; message: string; details?: ErrorDetail[]; links?: unknown[] },
  ) {
    super(body.message);
  }
}

const infoLink = (api: ApiName, issue: string) => [{ href: `https://developer.paypal.com/docs/api/${api}/#error-${issue}`, rel: 'information_link', method: 'GET' }];

export function invalidRequest(details: ErrorDetail[], api: ApiName): PayPalError {
  return new PayPalError(400, {
    name: 'INVALID_REQUEST',
    message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
    details,
    links: infoLink(api, details[0]?.issue ?? 'INVALID_REQUEST'),
  });
}

export function unprocessable(issue: string, description: string, api: ApiName): PayPalError {
  return new PayPalError(422, {
    name: 'UNPROCESSABLE_ENTITY',
    message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
    details: [{ issue, description }],
    links: infoLink(api, issue),
  });
}

export function notFound(api: ApiName, description = 'Specified resource ID does not exist. Please check the resource ID and try again.'): PayPalError {
  return new PayPalError(404, {
    name: 'RESOURCE_NOT_FOUND',
    message: 'The specified resource does not exist.',
    details: [{ issue: 'INVALID_RESOURCE_ID', description }],
    links: infoLink(api, 'INVALID_RESOURCE_ID'),
  });
}

export function authFailure(): PayPalError {
  return new PayPalError(401, {
    name: 'AUTHENTICATION_FAILURE',
    message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
    links: [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link' }],
  });
}

/**
 * Collects schema problems of a JSON body, then throws them as one 400 INVALID_REQUEST, the way
 * PayPal lists every bad field at once. Fields are JSON pointers (`/purchase_units/0/amount/value`).
 */
export class BodyCheck {
  readonly details: ErrorDetail[] = [];
  constructor(private readonly api: ApiName) {}

  missing(field: string) {
    this.details.push({ field, location: 'body', issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required field / parameter is missing.' });
  }

  invalid(field: string, value: unknown, issue = 'INVALID_PARAMETER_VALUE', description = 'The value of a field is invalid.') {
    this.details.push({ field, value: typeof value === 'string' ? value : JSON.stringify(value), location: 'body', issue, description });
  }

  /** A required string (non-empty, at most `max` characters). Returns it, or undefined after noting the problem. */
  text(body: Record<string, unknown>, key: string, path: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = body[key];
    if (value === undefined || value === null || value === '') {
      if (options.required) this.missing(`${path}/${key}`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.invalid(`${path}/${key}`, value, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.');
      return undefined;
    }
    if (options.max && value.length > options.max) {
      this.invalid(`${path}/${key}`, value, 'INVALID_STRING_LENGTH', `The value of a field is too long (maximum ${options.max} characters).`);
      return undefined;
    }
    return value;
  }

  /** `{ currency_code, value }` with a three-letter code and a decimal amount. */
  money(body: Record<string, unknown>, key: string, path: string, required = true): { currency_code: string; value: string } | undefined {
    const money = body[key];
    if (money === undefined || money === null) {
      if (required) this.missing(`${path}/${key}`);
      return undefined;
    }
    if (typeof money !== 'object' || Array.isArray(money)) {
      this.invalid(`${path}/${key}`, money, 'INVALID_PARAMETER_SYNTAX');
      return undefined;
    }
    const m = money as Record<string, unknown>;
    const currency = this.text(m, 'currency_code', `${path}/${key}`, { required: true });
    const value = this.text(m, 'value', `${path}/${key}`, { required: true });
    let ok = currency !== undefined && value !== undefined;
    if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
      this.invalid(`${path}/${key}/currency_code`, currency, 'INVALID_CURRENCY_CODE', 'Currency code is invalid or is not currently supported.');
      ok = false;
    }
    if (value !== undefined && !/^\d{1,10}(\.\d{1,2})?$/.test(value)) {
      this.invalid(`${path}/${key}/value`, value, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.');
      ok = false;
    }
    return ok ? { currency_code: currency!, value: value! } : undefined;
  }

  done() {
    if (this.details.length) throw invalidRequest(this.details, this.api);
  }
}
