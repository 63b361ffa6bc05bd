// Settings › Passkeys (issue 33 item 3) against a stubbed API: the list with last use, add (the browser's
// prompt answers with a fixed credential; the journey uses Chromium's virtual authenticator), rename, delete.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/instance';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { PasskeysCard } from './PasskeysCard';

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);

describe('Passkeys card', () => {
  it('lists, adds, renames and deletes passkeys (in Spanish)', async () => {
    await setLanguage('es');
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const credential = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'x' } };
    webauthn.startRegistration.mockResolvedValue(credential);
    let rows = [{ passkey_id: 3, name: 'Portátil', createdAt: '2026-01-02T10:00:00.000Z', last_used_at: null as string | null }];
    const { calls } = stubFetch({
      'GET /api/auth/passkeys': () => ({ body: { passkeys: rows } }),
      'POST /api/auth/passkeys/register/options': () => ({ body: { challenge: 'c1', rp: { id: 'localhost', name: 'Pluma' } } }),
      'POST /api/auth/passkeys/register': () => {
        rows = [{ passkey_id: 4, name: 'Móvil', createdAt: '2026-01-03T10:00:00.000Z', last_used_at: null }, ...rows];
        return { status: 201, body: rows[0] };
      },
      'PUT /api/auth/passkeys/3': () => {
        rows = rows.map((row) => (row.passkey_id === 3 ? { ...row, name: 'Trabajo' } : row));
        return { body: rows[1] };
      },
      'DELETE /api/auth/passkeys/4': () => {
        rows = rows.filter((row) => row.passkey_id !== 4);
        return { status: 204 };
      },
    });
    const session = fakeSession(buildUser());
    renderScreen(<PasskeysCard />, { session });
    const user = userEvent.setup({ delay: null });
    const card = await screen.findByTestId('passkeys-card');
    expect(await within(card).findByText('Portátil')).toBeInTheDocument();
    expect(within(card).getAllByText('Nunca').length).toBeGreaterThan(0);

    await user.type(within(card).getByLabelText('Nombre de la nueva llave de acceso'), 'Móvil');
    await user.click(within(card).getByRole('button', { name: 'Añadir una llave de acceso' }));
    await within(card).findByText('Móvil');
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c1', rp: { id: 'localhost', name: 'Pluma' } } });
    expect(calls.find((c) => c.url === '/api/auth/passkeys/register')?.body).toEqual({ name: 'Móvil', credential });
    expect(session.reloadUser).toHaveBeenCalled();

    const [, second] = within(card).getAllByTestId('passkey-row');
    await user.click(within(second).getByRole('button', { name: 'Cambiar nombre' }));
    const field = within(second).getByLabelText('Nombre');
    await user.clear(field);
    await user.type(field, 'Trabajo');
    await user.click(within(second).getByRole('button', { name: 'Guardar' }));
    await within(card).findByText('Trabajo');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Trabajo' });

    const [first] = within(card).getAllByTestId('passkey-row');
    await user.click(within(first).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(within(card).getAllByTestId('passkey-row')).toHaveLength(1));
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/auth/passkeys/4')).toBe(true);
  });
  it("asks \"Confirm it's you\" when the server wants a recent second factor, then deletes with the new session", async () => {
    await setLanguage('en');
    tokenStore.setSession('old-token', Date.now());
    let rows = [{ passkey_id: 5, name: 'Laptop', createdAt: '2026-01-02T10:00:00.000Z', last_used_at: null as string | null }];
    let deletes = 0;
    const { calls } = stubFetch({
      'GET /api/auth/passkeys': () => ({ body: { passkeys: rows } }),
      'DELETE /api/auth/passkeys/5': () => {
        // Refused the first time (a sign-in that passed its second step long ago), done after confirming.
        if (++deletes === 1) return { status: 403, body: { error: 'reauthentication_required', message: 'Confirm it’s you with your second factor to change how you sign in.' } };
        rows = [];
        return { status: 204 };
      },
      'POST /api/auth/two-factor/reconfirm': () => ({ body: { two_factor_required: true, challenge: 'ch-1', methods: ['totp'] } }),
      'POST /api/auth/two-factor/verify': () => ({ body: { token: 'new-token', user: buildUser() } }),
      'POST /api/auth/logout': () => ({ status: 204 }),
    });
    const session = fakeSession(buildUser());
    renderScreen(<PasskeysCard />, { session });
    const user = userEvent.setup({ delay: null });
    const card = await screen.findByTestId('passkeys-card');
    await user.click(await within(card).findByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByTestId('reconfirm-identity');
    expect(within(dialog).getByText(/pass your second step again/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Authentication code/), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(within(card).queryAllByTestId('passkey-row')).toHaveLength(0));
    expect(calls.find((c) => c.url === '/api/auth/two-factor/verify')?.body).toMatchObject({ challenge: 'ch-1', code: '123456' });
    expect(session.signIn).toHaveBeenCalledWith({ token: 'new-token', user: expect.any(Object) });
    // The replaced session is ended on the server with its own token.
    await waitFor(() => expect(calls.find((c) => c.url === '/api/auth/logout')?.headers.Authorization).toBe('Bearer old-token'));
    expect(deletes).toBe(2);
    expect(screen.queryByTestId('reconfirm-identity')).toBeNull();
  });

  it('changes nothing when "Confirm it\'s you" is cancelled', async () => {
    await setLanguage('en');
    let deletes = 0;
    stubFetch({
      'GET /api/auth/passkeys': () => ({ body: { passkeys: [{ passkey_id: 6, name: 'Phone', createdAt: '2026-01-02T10:00:00.000Z', last_used_at: null }] } }),
      'DELETE /api/auth/passkeys/6': () => {
        deletes++;
        return { status: 403, body: { error: 'reauthentication_required', message: 'Confirm it’s you with your second factor to change how you sign in.' } };
      },
      'POST /api/auth/two-factor/reconfirm': () => ({ body: { two_factor_required: true, challenge: 'ch-2', methods: ['totp'] } }),
    });
    renderScreen(<PasskeysCard />, { session: fakeSession(buildUser()) });
    const user = userEvent.setup({ delay: null });
    const card = await screen.findByTestId('passkeys-card');
    await user.click(await within(card).findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByTestId('reconfirm-identity');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('reconfirm-identity')).toBeNull());
    expect(within(card).getAllByTestId('passkey-row')).toHaveLength(1);
    expect(deletes).toBe(1);
    expect(within(card).queryByRole('alert')).toBeNull();
  });
});
