import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import LoginPage from './LoginPage';

// The browser's passkey prompt (navigator.credentials) is Chromium's own: the journey drives it with a virtual
// authenticator (e2e/sign-in-factors.e2e.test.ts); here it answers with a fixed credential.
const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);

describe('Login screen', () => {
  it('focuses the email, links to recovery and (when signup is on) to signup', () => {
    renderScreen(<LoginPage />, { route: '/auth/login' });
    expect(screen.getByLabelText(/^Email/, { selector: 'input' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/auth/recovery');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/auth/signup');
  });

  it('uses root paths without the landing page and hides signup when it is off', () => {
    renderScreen(<LoginPage />, { route: '/login', config: { landing_enabled: 'false', signup_enabled: 'false' } });
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/recovery');
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    renderScreen(<LoginPage />);
    const user = userEvent.setup({ delay: null });
    const password = screen.getByLabelText(/^Password/, { selector: 'input' });
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show or hide password' }));
    expect(password).toHaveAttribute('type', 'text');
  });

  it('shows a spinner while signing in, then signs in and goes to the requested page', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { calls } = stubFetch({ 'POST /api/auth/login': () => ({ status: 200, body: { token: 'tok', user: buildUser() } }) });
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      await answered;
      return fetchBefore(...args);
    }) as typeof fetch;
    const session = fakeSession(null);
    renderScreen(<LoginPage />, { route: '/auth/login?next=%2Fsettings', session });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), ' Ana@Example.com ');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret1{Enter}');
    // The first of the sign-in buttons ("Sign in with phone" follows it).
    const button = screen.getAllByRole('button', { name: /Sign in/ })[0];
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    release();
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'ana@example.com', password: 'secret1', device_tokens: [] });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings'));
  });

  it('asks an account with two-factor on for its code, sends the remembered devices, and remembers this one when asked', async () => {
    localStorage.setItem('pluma.trustedDevices', JSON.stringify(['old-device']));
    const { calls } = stubFetch({
      'POST /api/auth/login': () => ({ status: 200, body: { two_factor_required: true, challenge: 'challenge-123456' } }),
      'POST /api/auth/two-factor/verify': () => ({ status: 200, body: { token: 'tok', user: buildUser(), device_token: 'new-device' } }),
    });
    const session = fakeSession(null);
    renderScreen(<LoginPage />, { route: '/auth/login', session });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret1{Enter}');
    await user.type(await screen.findByLabelText(/^Authentication code/, { selector: 'input' }), '123456');
    await user.click(screen.getByRole('checkbox', { name: 'Remember this device for 30 days' }));
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts[0].body).toMatchObject({ device_tokens: ['old-device'] });
    expect(posts[1].body).toEqual({ challenge: 'challenge-123456', code: '123456', remember_device: true });
    expect(JSON.parse(localStorage.getItem('pluma.trustedDevices') ?? '[]')).toEqual(['new-device', 'old-device']);
  });

  it('offers a passkey where the browser has them: alone, and as the second step of an account that has one (issue 33)', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const credential = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'x' } };
    webauthn.startAuthentication.mockResolvedValue(credential);
    const { calls } = stubFetch({
      'POST /api/auth/passkeys/sign-in/options': () => ({ body: { challenge: 'c1', rpId: 'localhost' } }),
      'POST /api/auth/passkeys/sign-in': () => ({ body: { token: 'tok', user: buildUser() } }),
      'POST /api/auth/login': () => ({ body: { two_factor_required: true, challenge: 'challenge-123456', methods: ['passkey'] } }),
      'POST /api/auth/two-factor/passkey/options': () => ({ body: { challenge: 'c2', rpId: 'localhost' } }),
      'POST /api/auth/two-factor/passkey': () => ({ body: { token: 'tok2', user: buildUser() } }),
    });
    const session = fakeSession(null);
    const { unmount } = renderScreen(<LoginPage />, { route: '/auth/login', session });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c1', rpId: 'localhost' } });
    expect(calls.find((c) => c.url === '/api/auth/passkeys/sign-in')?.body).toEqual({ credential });
    unmount();

    renderScreen(<LoginPage />, { route: '/auth/login', session });
    await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret1{Enter}');
    // No code field for an account whose only second factor is a passkey.
    await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    expect(screen.queryByLabelText(/^Authentication code/, { selector: 'input' })).toBeNull();
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok2', user: buildUser() }));
    expect(calls.find((c) => c.url === '/api/auth/two-factor/passkey')?.body).toEqual({ challenge: 'challenge-123456', credential, remember_device: false });
  });

  it('shows the wrong-credentials message and signs out', async () => {
    localStorage.setItem('token', 'stale');
    stubFetch({
      'POST /api/auth/login': () => ({ status: 401, body: { error: 'invalid_credentials', message: 'Email or password is incorrect, please try again.' } }),
    });
    renderScreen(<LoginPage />);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'wrong{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Email or password is incorrect, please try again.');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('checks the fields before calling the server', async () => {
    const { fetchMock } = stubFetch({});
    renderScreen(<LoginPage />);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'not-an-email{Enter}');
    expect(await screen.findByText('Email is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password.')).toBeInTheDocument();
    // Only the single sign-on buttons' list was asked for (GET), nothing was sent.
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('single sign-on: a button per provider; the code the callback leaves in the address is removed and exchanged; a refusal is shown', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/sso/providers': () => ({ body: { providers: [{ provider_id: 7, name: 'Acme ID' }] } }),
      'POST /api/auth/sso/exchange': () => ({ body: { token: 'tok', user: buildUser() } }),
    });
    window.history.replaceState(null, '', '/auth/login#sso_code=code-from-callback-123');
    const session = fakeSession(null);
    renderScreen(<LoginPage />, { route: '/auth/login', session });
    expect(await screen.findByRole('link', { name: 'Continue with Acme ID' })).toHaveAttribute('href', '/api/auth/sso/7/start');
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    expect(window.location.hash).toBe('');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'code-from-callback-123', device_tokens: [] });
    cleanup();

    window.history.replaceState(null, '', '/auth/login?sso_error=sso_email_unverified');
    renderScreen(<LoginPage />, { route: '/auth/login' });
    expect(await screen.findByRole('alert')).toHaveTextContent('the provider has not verified the email');
    expect(window.location.search).toBe('');
  });

  describe('errors on screen follow a language switch', () => {
    afterEach(async () => {
      await i18n.changeLanguage('en');
    });

    it('field errors', async () => {
      stubFetch({});
      renderScreen(<LoginPage />);
      const user = userEvent.setup({ delay: null });
      await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'not-an-email{Enter}');
      expect(await screen.findByText('Email is invalid.')).toBeInTheDocument();
      await act(() => setLanguage('es'));
      expect(await screen.findByText('El correo electrónico no es válido.')).toBeInTheDocument();
      expect(screen.getByText('Por favor, escribe tu contraseña.')).toBeInTheDocument();
      expect(screen.queryByText('Email is invalid.')).not.toBeInTheDocument();
    });

    it('the wrong-credentials alert and a server message (too many attempts)', async () => {
      let status = 401;
      stubFetch({
        'POST /api/auth/login': () =>
          status === 401
            ? { status, body: { error: 'invalid_credentials', message: 'Email or password is incorrect, please try again.' } }
            : {
                status,
                body: {
                  error: 'rate_limited',
                  message: 'Too many failed sign-ins for this account. Please wait a few minutes and try again, or reset your password.',
                },
              },
      });
      renderScreen(<LoginPage />);
      const user = userEvent.setup({ delay: null });
      await user.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'ana@example.com');
      await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'wrong{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent('Email or password is incorrect, please try again.');
      await act(() => setLanguage('es'));
      expect(await screen.findByRole('alert')).toHaveTextContent('El correo o la contraseña son incorrectos, inténtalo de nuevo.');

      status = 429;
      await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Demasiados intentos fallidos en esta cuenta.');
      await act(() => setLanguage('en'));
      expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-ins for this account.');
    });
  });
});
