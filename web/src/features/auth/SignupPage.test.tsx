import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import SignupPage from './SignupPage';

async function fill(values: Partial<Record<string, string>>) {
  const user = userEvent.setup({ delay: null });
  const fields: [string, string | undefined][] = [
    ['Name', values.name],
    ['Last name', values.last_name],
    ['Email', values.email],
    ['Mobile phone', values.phone],
    ['Password', values.password],
    ['Confirm password', values.confirm],
  ];
  // Pasted, not typed key by key: typing six fields (one of 101 characters) took over 15 s on a loaded CI machine.
  for (const [label, value] of fields) {
    if (value === undefined) continue;
    await user.click(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' }));
    await user.paste(value);
  }
  return user;
}

const complete = { name: 'Ana', last_name: 'García', email: 'ana@example.com', phone: '5551234567', password: 'secret1', confirm: 'secret1' };

describe('Signup screen', () => {
  beforeEach(() => setLanguage('en'));
  afterEach(() => setLanguage('en'));

  it('focuses the first field and lists the four ways people find us', () => {
    renderScreen(<SignupPage />);
    expect(screen.getByLabelText(/^Name/, { selector: 'input' })).toHaveFocus();
    const select = screen.getByLabelText('How did you find us?');
    const options = [...select.querySelectorAll('option')].map((option) => option.textContent);
    expect(options).toEqual(['Choose an option', 'Recommendation', 'Facebook Ad', 'Instagram Ad', 'Other']);
  });

  it('shows each validation message of the spec next to its field', async () => {
    stubFetch({});
    renderScreen(<SignupPage />);
    const user = await fill({ name: ' ', last_name: ' ', email: 'ana@', phone: '123', password: '12345', confirm: '54321' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Last name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Email is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Phone number is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Password must be 6 characters long.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Last name/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the name message for an over-long name, and the required ones for empty email and phone', async () => {
    renderScreen(<SignupPage />);
    const user = await fill({ name: 'x'.repeat(101), last_name: 'G', password: 'secret1', confirm: 'secret2' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Name is invalid.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your email.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your mobile phone number.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
  });

  it('shows the Spanish messages in Spanish', async () => {
    await setLanguage('es');
    renderScreen(<SignupPage />);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText('Por favor, escribe tu nombre.')).toBeInTheDocument();
    expect(screen.getByText('El apellido no es válido.')).toBeInTheDocument();
  });

  it("sends the 'Other' free text as the reason and signs the user in", async () => {
    const { calls } = stubFetch({ 'POST /api/auth/signup': () => ({ status: 201, body: { token: 'tok', user: buildUser() } }) });
    const session = fakeSession(null);
    renderScreen(<SignupPage />, { session });
    const user = await fill(complete);
    await user.selectOptions(screen.getByLabelText('How did you find us?'), 'Other');
    await user.type(screen.getByLabelText('Tell us how you found us', { exact: false }), 'A podcast');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(session.signIn).toHaveBeenCalledWith({ token: 'tok', user: buildUser() }));
    // Only the sign-up's post: a GET a screen of an earlier test started (the SSO providers) may land in this stub.
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Ana',
      last_name: 'García',
      email: 'ana@example.com',
      password: 'secret1',
      phone: '5551234567',
      signup_reason: 'A podcast',
      lang: 'en',
    });
  });

  it('shows the server 400 details on their fields', async () => {
    stubFetch({
      'POST /api/auth/signup': () => ({
        status: 400,
        body: { error: 'validation_error', message: 'Phone number is invalid.', details: { phone: 'Phone number is invalid.' } },
      }),
    });
    renderScreen(<SignupPage />);
    const user = await fill(complete);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Phone number is invalid.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Mobile phone/, { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells an existing user to log in on 412', async () => {
    stubFetch({ 'POST /api/auth/signup': () => ({ status: 412, body: { error: 'email_exists', message: 'You already have an account, please login.' } }) });
    renderScreen(<SignupPage />, { route: '/auth/signup' });
    const user = await fill(complete);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('account-exists')).toHaveTextContent('You already have an account, please login.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('shows other signup errors as text', async () => {
    stubFetch({ 'POST /api/auth/signup': () => ({ status: 403, body: { error: 'signup_disabled', message: 'Sign-ups are currently closed.' } }) });
    renderScreen(<SignupPage />);
    const user = await fill(complete);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Sign-ups are currently closed.')).toBeInTheDocument();
  });
});
