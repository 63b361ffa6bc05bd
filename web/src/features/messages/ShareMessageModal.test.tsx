// The Share action of an answer: creates the link on open, shows it with Copy, 'Message Shared' (spec
// part 2 §8), Revoke ends it, and a refusal from the server is shown in the modal with a retry.
import type { MessageShare } from '@pluma/common/messages-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { ShareMessageButton } from './ShareMessageButton';

const share: MessageShare = { share_id: 3, message_id: 5, token: 'T'.repeat(43), path: `/shared/${'T'.repeat(43)}`, createdAt: '2026-01-01T00:00:00.000Z' };

beforeAll(async () => {
  await i18n.loadNamespaces('messages');
});

function renderButton() {
  return renderScreen(<ShareMessageButton messageId={5} />, { session: fakeSession(buildUser()) });
}

describe('ShareMessageModal', () => {
  it('creates the link, shows it with Copy and says Message Shared', async () => {
    await setLanguage('en');
    const api = stubFetch({ 'POST /api/messages/share': () => ({ status: 201, body: share }) });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderButton();

    fireEvent.click(await screen.findByTestId('share-message'));
    const modal = await screen.findByTestId('share-modal');
    const link = await within(modal).findByTestId('share-url');
    expect(link).toHaveValue(`${window.location.origin}/shared/${share.token}`);
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([expect.objectContaining({ url: '/api/messages/share', body: { message_id: 5 } })]);
    expect(await screen.findByText('Message Shared')).toBeInTheDocument();

    fireEvent.click(within(modal).getByTestId('share-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/shared/${share.token}`));
    expect(await screen.findByText('Link copied to clipboard')).toBeInTheDocument();
    expect(within(modal).getByRole('link', { name: /Open/ })).toHaveAttribute('href', share.path);
  });

  it('Revoke ends the link and closes the modal', async () => {
    await setLanguage('en');
    const api = stubFetch({
      'POST /api/messages/share': () => ({ status: 200, body: share }),
      'DELETE /api/messages/share/3': () => ({ body: { revoked: true } }),
    });
    renderButton();
    fireEvent.click(await screen.findByTestId('share-message'));
    fireEvent.click(await screen.findByTestId('share-revoke'));

    expect(await screen.findByText('Link revoked: it no longer works.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('share-modal')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.method === 'DELETE' && c.url === '/api/messages/share/3')).toBe(true);
  });

  it("shows the server's refusal in the modal and tries again on request (Spanish)", async () => {
    await setLanguage('es');
    let attempts = 0;
    stubFetch({
      'POST /api/messages/share': () => {
        attempts++;
        return attempts === 1
          ? { status: 409, body: { error: 'conflict', message: 'Aún no hay nada que compartir: espera a que se escriba la respuesta.' } }
          : { status: 201, body: share };
      },
    });
    renderButton();
    fireEvent.click(await screen.findByTestId('share-message'));
    const error = await screen.findByTestId('share-error');
    expect(error).toHaveTextContent('Aún no hay nada que compartir');
    expect(screen.queryByTestId('share-url')).not.toBeInTheDocument();

    fireEvent.click(within(error).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('share-url')).toBeInTheDocument();
    expect(await screen.findByText('Mensaje compartido')).toBeInTheDocument();
    await setLanguage('en');
  });
});
