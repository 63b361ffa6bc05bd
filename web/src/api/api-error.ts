// The error every API call rejects with: the server's { error, message, ... } body plus the HTTP status.
import type { ApiErrorBody } from '@pluma/common/errors';

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** Parsed error body, or null when the response was not JSON. */
  readonly body: ApiErrorBody | null;

  constructor(status: number, body: ApiErrorBody | null, fallbackMessage: string) {
    super(body?.message || fallbackMessage);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get errorId(): string | undefined {
    return this.body?.error;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /** Per-field texts of a 400 validation error, already translated by the server. */
  get details(): Record<string, string> {
    return this.body?.details ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
