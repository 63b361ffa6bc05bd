// Phone sign-in on the login page (issue 33 item 1): number, code, resend countdown, translated errors,
// and the two-factor step when the account asks for it.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import LoginPage from './LoginPage';

async function openPhoneForm() {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('button', { name: 'Sign in with phone' }));
  return { user, phone: await screen.findByLabelText(/^Mobile phone/, { selector: 'input' }) };
}

describe('Phone sign-in', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('checks the number first, texts a code, then signs in with it; resend waits for its countdown', async () => {
    const { calls: all } = stubFetch({
      'POST /api/auth/phone/start': () => ({ status: 200, body: { expires_in: 600, resend_in: 30 } }),
      'POST /api/auth/phone/verify': () => ({ status: 200, body: { token: 'tok', user: buildUser() } }),
    });
    const session = fakeSession(null);
    renderScreen(<LoginPage />, { route: '/auth/login?next=%2Fsettings', session });
    // The page also asks for the single sign-on providers (a GET): only the posts are the form's.
    const calls = { get length() { return posts().length; }, at: (i: number) => posts()[i] };
    const posts = () => all.filter((c) => c.method === 'POST');
    const { user, phone } = await openPhoneForm();
    expect(phone).toHaveAttribute('type', 'tel');
    await user.type(phone, '12345{Enter}');
    expect(await screen.findByText('Phone number is invalid.')).toBeInTheDocument();
    expect(calls.length).toBe(0);

    await user.clear(phone);
    await user.type(phone, '+52 555 123 4567{Enter}');
    const code = await screen.findByLabelText(/^Code/, { selector: 'input' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByText(/sent to \+52 555 123 4567/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /New code in 30 s/ })).toBeDisabled();
    expect(calls.at(0)?.body).toEqual({ phone: '+52 555 123 4567', lang: 'en' });

    await user.type(code, '12{Enter}');
    expect(await screen.findByText('Enter the 6 digits of the code.')).toBeInTheDocument();
    await user.type(code, '3456{Enter}');
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    expect(calls.at(1)?.body).toEqual({ phone: '+52 555 123 4567', code: '123456', device_tokens: [] });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
  });

  it('offers a new code once the countdown ends', async () => {
    const { calls } = stubFetch({ 'POST /api/auth/phone/start': () => ({ status: 200, body: { expires_in: 600, resend_in: 1 } }) });
    renderScreen(<LoginPage />);
    const { user, phone } = await openPhoneForm();
    await user.type(phone, '5551234567{Enter}');
    const resend = await screen.findByRole('button', { name: /Send a new code/ }, { timeout: 3000 });
    await user.click(resend);
    expect(await screen.findByText('We sent you a new code.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });

  it("shows the spec's message for an unknown number and a wrong code, in the current language", async () => {
    let verify = 401;
    stubFetch({
      'POST /api/auth/phone/start': (init) =>
        (JSON.parse(String(init.body)) as { phone: string }).phone.startsWith('999')
          ? { status: 404, body: { error: 'not_found', message: "We're sorry, we couldn't find an account with that number." } }
          : { status: 200, body: { expires_in: 600, resend_in: 30 } },
      'POST /api/auth/phone/verify': () =>
        verify === 401
          ? { status: 401, body: { error: 'phone_code_invalid', message: 'That code is not valid or has expired. Ask for a new one and try again.' } }
          : { status: 200, body: { two_factor_required: true, challenge: 'challenge-123456' } },
    });
    renderScreen(<LoginPage />);
    const { user, phone } = await openPhoneForm();
    await user.type(phone, '999 000 0001{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent("We're sorry, we couldn't find an account with that number.");
    await act(() => setLanguage('es'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Lo sentimos, no encontramos una cuenta con ese número.');

    await user.clear(screen.getByLabelText(/^Teléfono móvil/, { selector: 'input' }));
    await user.type(screen.getByLabelText(/^Teléfono móvil/, { selector: 'input' }), '555 123 4567{Enter}');
    await user.type(await screen.findByLabelText(/^Código/, { selector: 'input' }), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ese código no es válido o ha caducado.');

    // A right code for an account with two-factor on: its second step.
    verify = 200;
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByTestId('two-factor-form')).toBeInTheDocument();
  });
});
