import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { i18n } from '../i18n';
import { describeError } from './error-handler';

const t = i18n.getFixedT('en');
const tEs = i18n.getFixedT('es');
const apiError = (status: number, body: Record<string, unknown> | null) =>
  new ApiError(status, body as never, `Request failed with status code ${status}`);

describe('describeError (spec part 1 §8 generic alert, part 2 §8 generic handler)', () => {
  it("shows the server's message when present", () => {
    expect(describeError(apiError(409, { error: 'conflict', message: "We're sorry, you cannot purchase this product anymore." }), t)).toEqual({
      kind: 'alert',
      message: "We're sorry, you cannot purchase this product anymore.",
    });
  });

  it('falls back to the error text for errors that are not API errors', () => {
    expect(describeError(new Error('Something odd'), t)).toEqual({ kind: 'alert', message: 'Something odd' });
    expect(describeError('plain text', t)).toEqual({ kind: 'alert', message: 'plain text' });
    expect(describeError(undefined, t)).toEqual({ kind: 'alert', message: 'Something went wrong, please try again.' });
  });

  it('suppresses 400 and 401 errors in the generic alert', () => {
    expect(describeError(apiError(400, { error: 'validation_error', message: 'Email is invalid.' }), t)).toEqual({ kind: 'ignore' });
    expect(describeError(apiError(401, { error: 'unauthenticated', message: 'Please sign in.' }), t)).toEqual({ kind: 'ignore' });
    expect(describeError(new Error('Request failed with status code 401'), t)).toEqual({ kind: 'ignore' });
    expect(describeError(new Error('Request failed with status code 400'), t)).toEqual({ kind: 'ignore' });
  });

  it('shows 400/401 messages when a screen asks for them', () => {
    expect(describeError(apiError(400, { error: 'validation_error', message: 'Email is invalid.' }), t, { showValidation: true })).toEqual({
      kind: 'alert',
      message: 'Email is invalid.',
    });
  });

  it('goes to /sorry on 412, or shows the premium text for avatars', () => {
    const premium = apiError(412, { error: 'premium_required', message: 'This is a premium feature. Please, upgrade your account.' });
    expect(describeError(premium, t)).toEqual({ kind: 'sorry' });
    expect(describeError(premium, t, { premiumAsMessage: true })).toEqual({
      kind: 'alert',
      message: 'This is a premium feature. Please, upgrade your account.',
    });
    expect(describeError(premium, tEs, { premiumAsMessage: true })).toEqual({
      kind: 'alert',
      message: 'Esta es una función premium. Por favor, mejora tu cuenta.',
    });
  });

  it("does not prefix an outbound call's failure (a product's webhook) with 'Open AI Error: '", () => {
    expect(describeError(apiError(502, { error: 'outbound_request_failed', message: 'The address did not answer.', code: 'timeout' }), t)).toEqual({
      kind: 'alert',
      message: 'The address did not answer.',
    });
  });

  it("does not prefix sso_required (its code is the provider's id) with 'Open AI Error: '", () => {
    const message = 'Your organization signs in with Acme. Use "Continue with Acme".';
    expect(describeError(apiError(403, { error: 'sso_required', message, code: 7 }), t)).toEqual({ kind: 'alert', message });
  });

  it("prefixes AI-provider errors with 'Open AI Error: '", () => {
    expect(describeError(apiError(502, { error: 'provider_error', message: 'Rate limit reached', provider: 'openai', code: 'rate_limit_exceeded' }), t)).toEqual({
      kind: 'alert',
      message: 'Open AI Error: Rate limit reached',
    });
    expect(describeError(apiError(500, { error: 'provider_error', message: 'Quota', code: 429 }), t)).toEqual({ kind: 'alert', message: 'Open AI Error: Quota' });
    expect(describeError(apiError(502, { error: 'provider_error', message: 'Overloaded', provider: 'anthropic', code: 'overloaded_error' }), t)).toEqual({
      kind: 'alert',
      message: 'Anthropic Error: Overloaded',
    });
  });

  it('explains a network failure in the current language', () => {
    expect(describeError(new ApiError(0, null, 'Network error'), t)).toEqual({
      kind: 'alert',
      message: "We couldn't reach the server. Check your connection and try again.",
    });
    expect(describeError(new ApiError(0, null, 'Network error'), tEs).kind).toBe('alert');
  });

  it('ignores aborted requests', () => {
    expect(describeError(new DOMException('aborted', 'AbortError'), t)).toEqual({ kind: 'ignore' });
  });
});
