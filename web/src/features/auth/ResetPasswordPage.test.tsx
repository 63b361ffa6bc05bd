import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ResetPasswordPage from './ResetPasswordPage';

async function choose(password: string, confirm = password) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText(/^New password/, { selector: 'input' }), password);
  await user.type(screen.getByLabelText(/^Confirm password/, { selector: 'input' }), confirm);
  await user.click(screen.getByRole('button', { name: 'Save password and sign in' }));
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('Reset password screen', () => {
  it('opens in the language of the email (lang=es), without saving it on this browser', async () => {
    localStorage.setItem('lang', 'en');
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc&lang=es' });
    expect(await screen.findByRole('heading', { name: 'Elige una nueva contraseña' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Guardar contraseña e iniciar sesión' })).toBeEnabled();
    expect(localStorage.getItem('lang')).toBe('en');
  });

  it('ignores a lang it does not know', () => {
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc&lang=fr' });
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
  });

  it('explains a link without a token and keeps the form disabled', () => {
    renderScreen(<ResetPasswordPage />, { route: '/reset-password' });
    expect(screen.getByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired.');
    expect(screen.getByLabelText(/^New password/, { selector: 'input' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save password and sign in' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/auth/recovery');
  });

  it('checks length and confirmation before calling the server', async () => {
    const { fetchMock } = stubFetch({});
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await choose('abc', 'abd');
    expect(await screen.findByText('Password must be 6 characters long.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await screen.findByText('La contraseña debe tener al menos 6 caracteres.')).toBeInTheDocument();
    expect(screen.getByText('Las contraseñas no coinciden.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the password, signs in and goes home', async () => {
    const { calls } = stubFetch({ 'POST /api/auth/reset-password': () => ({ body: { token: 'tok', user: buildUser() } }) });
    const session = fakeSession(null);
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc', session });
    await choose('secret12');
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    expect(calls[0].body).toEqual({ token: 'abc', password: 'secret12' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('puts the server’s password complaint under the field and other failures in the alert', async () => {
    stubFetch({
      'POST /api/auth/reset-password': () => ({
        status: 400,
        body: { error: 'validation_error', message: 'Invalid request.', details: { password: 'Too weak.' } },
      }),
    });
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await choose('secret12');
    expect(await screen.findByText('Too weak.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an expired token as the server words it', async () => {
    stubFetch({
      'POST /api/auth/reset-password': () => ({ status: 400, body: { error: 'invalid_token', message: 'This link has expired.' } }),
    });
    renderScreen(<ResetPasswordPage />, { route: '/reset-password?token=abc' });
    await choose('secret12');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired.');
  });
});
