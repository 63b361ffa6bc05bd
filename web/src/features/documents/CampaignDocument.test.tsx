// The campaign document page (spec part 2 §2 "Campaign document page"): the linked document's name and its
// stored HTML read-only (sanitized again on render), a Back link to the campaign, the Edit toggle only when
// the server's abilities allow editing (opening the editor page), and the not-shared message in EN and ES.
import type { DocumentRecord } from '@pluma/common/documents';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, stubFetch } from '../../test/render';
import CampaignDocumentPage from './CampaignDocumentPage';

beforeAll(async () => {
  await i18n.loadNamespaces(['documents']);
  await i18n.loadLanguages('es');
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

const record = (overrides: Partial<DocumentRecord> = {}): DocumentRecord => ({
  document_id: 3,
  name: 'Launch brief',
  tags: [],
  organization_id: 5,
  user_id: 9,
  characters: 5,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  abilities: { edit: false, delete: false, export: false },
  content: '<h1>Goals</h1><p>Hello <img src="x" onerror="alert(1)"></p><script>alert(2)</script>',
  blocks: [],
  ...overrides,
});
const at = (route: string) => ({ session: fakeSession(buildUser({ user_id: 7 })), route, path: '/campaign/:campaignId/documents/:documentId' });

describe('campaign document page', () => {
  it('shows the linked document read-only, sanitized, with a Back link and no Edit for a reader', async () => {
    const { calls } = stubFetch({ 'GET /api/documents/3/campaigns/12': () => ({ body: record() }) });
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    const html = await screen.findByTestId('campaign-document-html');
    expect(screen.getByRole('heading', { level: 1, name: 'Launch brief' })).toBeInTheDocument();
    expect(html.querySelector('h1')).toHaveTextContent('Goals');
    expect(html.innerHTML).not.toContain('script');
    expect(html.innerHTML).not.toContain('onerror');
    expect(screen.getByTestId('campaign-document-back')).toHaveAttribute('href', '/organization/campaigns/12');
    expect(screen.queryByTestId('campaign-document-toggle')).not.toBeInTheDocument();
    expect(calls[0].url).toContain('/api/documents/3/campaigns/12');
  });

  it('offers Edit to the author, which opens the editor page', async () => {
    stubFetch({ 'GET /api/documents/3/campaigns/12': () => ({ body: record({ abilities: { edit: true, delete: true, export: true } }) }) });
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/3'));
    await screen.findByTestId('campaign-document-html');
    await userEvent.setup({ delay: null }).click(screen.getByText('Edit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/documents/3'));
  });

  it('says the document is not shared when the server answers 404, in Spanish too', async () => {
    await i18n.changeLanguage('es');
    stubFetch({});
    renderScreen(<CampaignDocumentPage />, at('/campaign/12/documents/4'));
    expect(await screen.findByTestId('campaign-document-error')).toHaveTextContent('Este documento no existe o no se comparte contigo en esta campaña.');
    expect(screen.getByTestId('campaign-document-back')).toHaveTextContent('Volver a la campaña');
  });
});
