import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { renderScreen, setLanguage, stubFetch } from '../../test/render';
import RecoveryPage from './RecoveryPage';

async function send(email: string) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('Password recovery screen (spec part 1 §8)', () => {
  it('checks the email with the shared rules before calling the server, in English and Spanish', async () => {
    const { fetchMock } = stubFetch({});
    renderScreen(<RecoveryPage />);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter your email.')).toBeInTheDocument();
    await send('ana@');
    expect(await screen.findByText('Email is invalid.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await screen.findByText('El correo electrónico no es válido.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed, lower-cased email and confirms', async () => {
    const { calls } = stubFetch({ 'POST /api/users/sendResetPasswordLink': () => ({ body: { message: 'ok' } }) });
    renderScreen(<RecoveryPage />);
    await send('  Ana@Example.COM ');
    expect(await screen.findByText("We've sent you a password reset email.")).toBeInTheDocument();
    expect(calls[0].body).toEqual({ email: 'ana@example.com' });
  });

  it('explains a 404', async () => {
    stubFetch({ 'POST /api/users/sendResetPasswordLink': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }) });
    renderScreen(<RecoveryPage />);
    await send('nobody@example.com');
    expect(
      await screen.findByText('We did not found any account with this email. Could your account be under a different email?'),
    ).toBeInTheDocument();
  });

  it("says to use the organization's single sign-on when its domain requires it (403 sso_required)", async () => {
    const message = 'Your organization signs in with Acme. Use "Continue with Acme".';
    stubFetch({ 'POST /api/users/sendResetPasswordLink': () => ({ status: 403, body: { error: 'sso_required', message, code: 3 } }) });
    renderScreen(<RecoveryPage />);
    await send('bea@acme.test');
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('asks to try later on any other error', async () => {
    stubFetch({ 'POST /api/users/sendResetPasswordLink': () => ({ status: 500, body: { error: 'internal_error', message: 'Boom' } }) });
    renderScreen(<RecoveryPage />);
    await send('ana@example.com');
    expect(await screen.findByText('There was an error with your request, please try again later.')).toBeInTheDocument();
  });
});
