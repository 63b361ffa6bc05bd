// The public page of a shared message: reads the link without a session, renders the answer's markdown
// with the app name in the footer, and says so when the link is unknown or revoked. /shared is a
// standalone route whatever the session.
import type { SharedMessage } from '@pluma/common/messages-api';
import { fireEvent, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenStore } from '../../api/instance';
import { registry } from '../../app/app-registry';
import { decideRoute } from '../../app/session/routing';
import { i18n } from '../../i18n';
import { renderScreen, setLanguage, stubFetch } from '../../test/render';
import SharedMessagePage from './SharedMessagePage';

const token = 'a'.repeat(43);
const shared: SharedMessage = { role: 'assistant', content: '## Plan\n\nStep **one**', model: 'gpt-4o-mini', createdAt: '2026-03-04T10:00:00.000Z', citations: [] };

beforeAll(async () => {
  await i18n.loadNamespaces('messages');
});

function renderShared(answer: { status?: number; body?: unknown }) {
  const api = stubFetch({ [`GET /api/shared/${token}`]: () => answer });
  renderScreen(
    <Suspense fallback={null}>
      <SharedMessagePage />
    </Suspense>,
    { route: `/shared/${token}`, path: '/shared/:token', config: { app_name: 'Pluma Test' } },
  );
  return api;
}

describe('SharedMessagePage', () => {
  it('renders the shared answer as markdown with its model, date and the app name in the footer; sends no session', async () => {
    await setLanguage('en');
    // Even a signed-in browser reads the link as anyone would.
    tokenStore.setSession('session-token', Date.now());
    const api = renderShared({ body: shared });
    const article = await screen.findByTestId('shared-message');
    expect(article.querySelector('h2')).toHaveTextContent('Plan');
    expect(article.querySelector('strong')).toHaveTextContent('one');
    expect(screen.getByText('gpt-4o-mini')).toBeInTheDocument();
    expect(screen.getByText('March 4, 2026')).toBeInTheDocument();
    expect(screen.getByTestId('shared-footer')).toHaveTextContent('Shared from Pluma Test');
    expect(api.calls[0].headers).not.toHaveProperty('Authorization');
    expect(api.calls[0].headers).not.toHaveProperty('authorization');
  });

  it("shows a shared avatar answer's citations (file, page), the passage in a modal", async () => {
    await setLanguage('en');
    const citation = { file_id: 31, name: 'keeper-notes.pdf', page: 3, heading: 'Fog', text: 'The keeper logs the foghorn every night at eleven.' };
    renderShared({ body: { ...shared, citations: [citation] } });
    const cited = await screen.findByTestId('citation');
    expect(cited).toHaveTextContent('keeper-notes.pdf · p. 3');
    fireEvent.click(cited);
    expect(await screen.findByTestId('citation-text')).toHaveTextContent('The keeper logs the foghorn every night at eleven.');
  });

  it('says the link is not available when it is unknown or revoked (Spanish)', async () => {
    await setLanguage('es');
    renderShared({ status: 404, body: { error: 'not_found', message: 'No encontrado.' } });
    expect(await screen.findByTestId('shared-not-found')).toHaveTextContent('Este enlace no está disponible');
    expect(screen.queryByTestId('shared-message')).not.toBeInTheDocument();
    expect(screen.getByTestId('shared-footer')).toHaveTextContent('Compartido desde Pluma Test');
    await setLanguage('en');
  });

  it('is a standalone page signed out, signed in, and without access', () => {
    const base = { pathname: `/shared/${token}`, landingEnabled: true, spanishEnabled: true, signupEnabled: true, access: registry.access };
    expect(decideRoute({ ...base, status: 'signedOut' })).toEqual({ kind: 'standalone' });
    expect(decideRoute({ ...base, status: 'signedIn', hasAccess: false })).toEqual({ kind: 'standalone' });
    expect(decideRoute({ ...base, status: 'unknown' })).toEqual({ kind: 'standalone' });
  });
});
