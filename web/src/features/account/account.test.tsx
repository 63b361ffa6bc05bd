import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ProfilePage from './ProfilePage';
import SettingsPage from './SettingsPage';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('Settings screen (spec part 1 §2)', () => {
  it('saves language and dark mode to the profile, switches the language and confirms', async () => {
    const updated = buildUser({ lang: 'es', dark_mode: true });
    const { calls } = stubFetch({ 'PUT /api/users': () => ({ body: updated }) });
    const session = fakeSession(buildUser());
    renderScreen(<SettingsPage />, { session });
    expect(screen.getByTestId('api-key-note')).toHaveTextContent('valid API key');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    const user = userEvent.setup({ delay: null });
    await user.selectOptions(screen.getByLabelText('Language', { selector: 'select' }), 'es');
    await user.click(screen.getByRole('switch', { name: /Dark mode/ }));
    await user.click(save);

    await waitFor(() => expect(session.setUser).toHaveBeenCalledWith(updated));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ method: 'PUT', url: '/api/users', body: { lang: 'es', dark_mode: true } });
    expect(localStorage.getItem('lang')).toBe('es');
    expect(i18n.language).toBe('es');
    expect(await screen.findByText('Tu configuración se guardó.')).toBeInTheDocument();
  });
});

describe("Settings: the user's own AI key (spec part 1 §1; issue 13 item 1)", () => {
  const none = { configured: false, provider: null, masked: null, updatedAt: null };
  const saved = { configured: true, provider: 'openai', masked: '••••••••wxyz', updatedAt: '2025-01-01T00:00:00.000Z' };

  it('saves a key, shows it masked, tests and removes it', async () => {
    let current: object = none;
    const { calls } = stubFetch({
      'GET /api/users/ai-key': () => ({ body: current }),
      'PUT /api/users/ai-key': () => {
        current = saved;
        return { body: saved };
      },
      'POST /api/users/ai-key/test': () => ({ body: { ok: false, provider: 'openai', status: 401, code: 'invalid_api_key', message: 'Incorrect API key provided' } }),
      'DELETE /api/users/ai-key': () => ({ body: none }),
    });
    renderScreen(<SettingsPage />, { session: fakeSession(buildUser()) });
    expect(await screen.findByText('No key saved yet.')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    // What cannot be a key is refused here, before any call.
    await user.type(screen.getByTestId('ai-key-input'), 'short');
    await user.click(screen.getByTestId('ai-key-save'));
    expect(await screen.findByText('This does not look like an API key.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(screen.getByTestId('ai-key-input'));
    await user.type(screen.getByTestId('ai-key-input'), 'sk-proj-user-key-0123456789wxyz');
    await user.click(screen.getByTestId('ai-key-save'));
    expect(await screen.findByText('Saved key: ••••••••wxyz')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ api_key: 'sk-proj-user-key-0123456789wxyz' });
    expect(screen.getByTestId('ai-key-input')).toHaveValue('');

    await user.click(screen.getByTestId('ai-key-test'));
    expect(await screen.findByTestId('ai-key-test-result')).toHaveTextContent('The provider refused the key (401): Incorrect API key provided');
    await user.click(screen.getByTestId('ai-key-remove'));
    expect(await screen.findByText('No key saved yet.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('shows why a key the provider refused was not saved, in English and Spanish (issue 30 item 3)', async () => {
    for (const [lang, message] of [
      ['en', 'OpenAI refused this API key (401). Check that it is complete and active, then save it again.'],
      ['es', 'OpenAI rechazó esta clave de API (401). Revisa que esté completa y activa, y guárdala de nuevo.'],
    ] as const) {
      await setLanguage(lang);
      const { calls } = stubFetch({
        'GET /api/users/ai-key': () => ({ body: none }),
        'PUT /api/users/ai-key': () => ({ status: 400, body: { error: 'validation_error', message, details: { api_key: message } } }),
      });
      const view = renderScreen(<SettingsPage />, { session: fakeSession(buildUser({ lang })) });
      const input = await screen.findByTestId('ai-key-input');
      const user = userEvent.setup({ delay: null });
      await user.type(input, 'sk-proj-made-up-key-0123456789');
      await user.click(screen.getByTestId('ai-key-save'));
      expect(await screen.findByText(message)).toBeInTheDocument();
      // Not saved: the card still says there is no key, and the typed key stays to be corrected.
      expect(screen.getByTestId('ai-key-status')).toHaveTextContent(lang === 'en' ? 'No key saved yet.' : 'Aún no hay una clave guardada.');
      expect(input).toHaveValue('sk-proj-made-up-key-0123456789');
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
      view.unmount();
    }
  });

  it('speaks Spanish', async () => {
    stubFetch({ 'GET /api/users/ai-key': () => ({ body: saved }) });
    await setLanguage('es');
    renderScreen(<SettingsPage />, { session: fakeSession(buildUser({ lang: 'es' })) });
    expect(await screen.findByText('Clave guardada: ••••••••wxyz')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Probar' })).toBeEnabled();
  });
});

describe('Profile screen (spec part 1 §2, §5)', () => {
  it('saves name, company and a phone kept to 10 digits', async () => {
    const { calls } = stubFetch({ 'PUT /api/users': (init) => ({ body: { ...buildUser(), ...JSON.parse(String(init.body)) } }) });
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    expect(screen.getByDisplayValue('ana@example.com')).toHaveAttribute('readonly');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Company'), 'Acme');
    await user.type(screen.getByLabelText(/^Mobile phone/, { selector: 'input' }), '+52 (555) 123-4567 ext');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ name: 'Ana', last_name: 'García', company: 'Acme', phone: '5255512345' });
    expect(await screen.findByText('Your profile has been saved.')).toBeInTheDocument();
  });

  it('checks the fields with the shared rules before saving, in English and Spanish', async () => {
    const { fetchMock } = stubFetch({});
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    const form = screen.getByTestId('profile-form');
    fireEvent.change(within(form).getByLabelText(/^Name/, { selector: 'input' }), { target: { value: '  ' } });
    fireEvent.change(within(form).getByLabelText(/^Last name/, { selector: 'input' }), { target: { value: 'x'.repeat(101) } });
    fireEvent.submit(form);
    expect(await within(form).findByText('Please enter your name.')).toBeInTheDocument();
    expect(within(form).getByText('Too long: at most 100 characters.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await within(form).findByText('Por favor, escribe tu nombre.')).toBeInTheDocument();
    expect(within(form).getByText('Demasiado largo: como máximo 100 caracteres.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('picks the language in a modal and saves it', async () => {
    const { calls } = stubFetch({ 'PUT /api/users': () => ({ body: buildUser({ lang: 'es' }) }) });
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Change language' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose your language' });
    expect(within(dialog).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Español' }));
    await waitFor(() => expect(calls[0]).toMatchObject({ method: 'PUT', body: { lang: 'es' } }));
    await waitFor(() => expect(i18n.language).toBe('es'));
  });

  it('signs out, and deletes the account after confirmation', async () => {
    const { calls } = stubFetch({ 'DELETE /api/users': () => ({ status: 204 }) });
    const session = fakeSession(buildUser());
    renderScreen(<ProfilePage />, { session });
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(session.signOut).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(calls[0]).toMatchObject({ method: 'DELETE', url: '/api/users' }));
    await waitFor(() => expect(session.signOut).toHaveBeenCalledTimes(2));
  });
});
