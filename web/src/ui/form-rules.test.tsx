import { MantineProvider } from '@mantine/core';
import { changePasswordRequest, loginRequest } from '@pluma/common/auth';
import { updateProfileRequest } from '@pluma/common/users';
import { act, render, screen } from '@testing-library/react';
import { isValidElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { formRules, issueMessage } from './form-rules';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('formRules: a form validated by a common/ request schema', () => {
  const login = formRules<{ email: string; password: string }>({ schema: loginRequest, required: { email: 'auth.emailRequired' } });

  it("keeps the schema's message keys as i18n keys, first problem per field", () => {
    expect(login({ email: 'ana@example.com', password: 'x' })).toEqual({});
    expect(login({ email: 'ana@', password: '' })).toEqual({ email: 'validation.invalid_email', password: 'validation.invalid_password' });
  });

  it('asks for an empty field in its own words', () => {
    expect(login({ email: '  ', password: 'x' })).toEqual({ email: 'auth.emailRequired' });
  });

  it('maps request fields to form fields and checks a confirmation', () => {
    const rules = formRules<{ old: string; password: string; again: string }>({
      schema: changePasswordRequest,
      payload: (values) => ({ current_password: values.old, password: values.password }),
      fieldOf: { current_password: 'old', password: 'password' },
      confirm: { field: 'again', of: 'password' },
    });
    expect(rules({ old: '', password: 'secret1', again: 'secret2' })).toEqual({ old: 'validation.current_password_invalid', again: 'validation.password_mismatch' });
  });

  it('words a limit with its number, and re-words it when the language changes', async () => {
    const profile = formRules<{ last_name: string }>({ schema: updateProfileRequest });
    const error = profile({ last_name: 'x'.repeat(101) }).last_name as ReactNode;
    expect(isValidElement(error)).toBe(true);
    render(<MantineProvider>{error}</MantineProvider>);
    expect(screen.getByText('Too long: at most 100 characters.')).toBeInTheDocument();
    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByText('Demasiado largo: como máximo 100 caracteres.')).toBeInTheDocument();
  });
});

describe('issueMessage: zod issues without a message key of their own', () => {
  it('chooses the message by the kind of issue, as the server does', () => {
    expect(issueMessage({ code: 'too_small', message: 'x', origin: 'string', minimum: 1 })).toEqual({ key: 'field_required' });
    expect(issueMessage({ code: 'too_small', message: 'x', origin: 'string', minimum: 3 })).toEqual({ key: 'text_too_short', params: { min: '3' } });
    expect(issueMessage({ code: 'too_big', message: 'x', origin: 'array', maximum: 30 })).toEqual({ key: 'too_many_items', params: { max: '30' } });
    expect(issueMessage({ code: 'too_big', message: 'x', origin: 'number', maximum: 9 })).toEqual({ key: 'number_too_big', params: { max: '9' } });
    expect(issueMessage({ code: 'invalid_value', message: 'x' })).toEqual({ key: 'invalid_choice' });
    expect(issueMessage({ code: 'custom', message: 'conversation_tags_invalid' })).toEqual({ key: 'conversation_tags_invalid' });
  });
});
