// Settings › Passkeys (issue 33 item 3) against a stubbed API: the list with last use, add (the browser's
// prompt answers with a fixed credential; the journey uses Chromium's virtual authenticator), rename, delete.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
});
