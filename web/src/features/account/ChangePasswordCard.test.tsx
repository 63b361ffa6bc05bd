import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ProfilePage from './ProfilePage';
import { PASSWORD_CHANGE_PATH } from './password-change';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const field = (label: RegExp) => within(screen.getByTestId('password-card')).getByLabelText(label, { selector: 'input' });

async function fill(values: { current?: string; next?: string; confirm?: string }) {
  const user = userEvent.setup({ delay: null });
  if (values.current) await user.type(field(/^Current password/), values.current);
  if (values.next) await user.type(field(/^New password/), values.next);
  if (values.confirm) await user.type(field(/^Confirm password/), values.confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('Profile: change password', () => {
  it('checks the fields with the shared rules before calling the server', async () => {
    const { fetchMock } = stubFetch({});
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    await fill({ next: '123', confirm: '124' });
    const card = screen.getByTestId('password-card');
    expect(await within(card).findByText('Please enter your password.')).toBeInTheDocument();
    expect(within(card).getByText('Password must be 6 characters long.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.setup({ delay: null }).type(field(/^New password/), '456');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Change password' }));
    expect(await within(card).findByText('Passwords do not match.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the current and the new password, confirms and empties the form', async () => {
    const { calls } = stubFetch({ 'PUT /api/auth/password': () => ({ status: 204 }) });
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    await fill({ current: 'old-pass-1', next: 'new-pass-1', confirm: 'new-pass-1' });
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/auth/password', body: { current_password: 'old-pass-1', password: 'new-pass-1' } });
    expect(field(/^Current password/)).toHaveValue('');
  });

  it('puts a wrong current password under its field, and re-words it when the language changes', async () => {
    stubFetch({
      'PUT /api/auth/password': () => ({ status: 400, body: { error: 'invalid_credentials', message: 'Your current password is incorrect.' } }),
    });
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()) });
    await fill({ current: 'not-it-1', next: 'new-pass-1', confirm: 'new-pass-1' });
    const card = screen.getByTestId('password-card');
    expect(await within(card).findByText('Your current password is incorrect.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await within(card).findByText('Tu contraseña actual es incorrecta.')).toBeInTheDocument();
    expect(field(/^Contraseña actual/)).toBeInTheDocument();
  });

  it('opens at the form from a link to /profile#password', async () => {
    stubFetch({});
    renderScreen(<ProfilePage />, { session: fakeSession(buildUser()), route: PASSWORD_CHANGE_PATH });
    await waitFor(() => expect(field(/^Current password/)).toHaveFocus());
  });
});
