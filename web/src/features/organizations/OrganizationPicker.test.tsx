// The sidebar's organization picker for a staff admin with more organizations than one page (50): their own
// come first, typing searches the server (debounced) and finds the 60th, choosing it switches the context.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import OrganizationPicker from './OrganizationPicker';
import { buildOrganization } from './test-organizations';
import { resetOrganizationStateAroundEachTest } from './test-organization-hooks';

const staffAdmin = buildUser({ user_id: 1, staff: { staff_id: 1, role: 'admin' } });
const own = [buildOrganization({ organization_id: 101, name: 'Own Team', role: 'admin' })];
// 60 organizations the staff admin oversees without being a member (role null on the list).
const others = Array.from({ length: 60 }, (_, i) => buildOrganization({ organization_id: i + 1, name: `Client ${String(i + 1).padStart(2, '0')}`, role: null }));

/** GET /organizations as the server answers a staff admin: theirs first, then by name, 50 a page. */
function organizationsEndpoint(_init: RequestInit, url: string) {
  const query = (new URL(url, 'http://x').searchParams.get('query') ?? '').toLowerCase();
  const matches = [...own, ...others].filter((o) => o.name.toLowerCase().includes(query));
  return { body: { organizations: matches.slice(0, 50), total: matches.length } };
}

const optionsOf = (select: HTMLElement) => within(document.getElementById(select.getAttribute('aria-controls')!)!).queryAllByRole('option', { hidden: true });
const searchesIn = (calls: { url: string }[]) => calls.map((c) => new URL(c.url, 'http://x').searchParams.get('query')).filter(Boolean);

resetOrganizationStateAroundEachTest();

describe('organization picker search', () => {
  it("lists the staff admin's own organization first, and a search finds the 60th (past the first page)", async () => {
    const { calls } = stubFetch({ 'GET /api/organizations': organizationsEndpoint });
    renderScreen(
      <Suspense fallback={null}>
        <OrganizationPicker />
      </Suspense>,
      { session: fakeSession(staffAdmin), route: '/conversations', config: { organizations_enabled: 'true' } },
    );
    const select = await screen.findByTestId('organization-select');
    await waitFor(() => expect(select).toHaveValue('Personal'));
    fireEvent.click(select);
    const first = await waitFor(() => {
      const options = optionsOf(select);
      expect(options.length).toBeGreaterThan(1);
      return options.map((o) => o.textContent);
    });
    // Personal, their own, then the first page of the rest: the 60th is not there.
    expect(first.slice(0, 3)).toEqual(['Personal', 'Own Team', 'Client 01']);
    expect(first).not.toContain('Client 60');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    // Typed by the user (Mantine treats a change to an unfocused input as autofill).
    act(() => select.focus());
    fireEvent.change(select, { target: { value: 'Client 6' } });
    fireEvent.change(select, { target: { value: 'Client 60' } });
    // Debounced: nothing is asked while typing goes on.
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(searchesIn(calls)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(600));
    await waitFor(() => expect(optionsOf(select).map((o) => o.textContent)).toContain('Client 60'));
    // One request, for the text as it was when typing paused, in Personal (organization_id=).
    expect(searchesIn(calls)).toEqual(['Client 60']);
    const searched = calls.find((c) => c.url.includes('query='))!;
    expect(new URL(searched.url, 'http://x').searchParams.get('organization_id')).toBe('');

    fireEvent.click(optionsOf(select).find((o) => o.textContent === 'Client 60')!);
    await waitFor(() => expect(organizationStore.get()).toEqual({ organization_id: 60, name: 'Client 60' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('a search with no match says so, in Spanish', async () => {
    await setLanguage('es');
    stubFetch({ 'GET /api/organizations': organizationsEndpoint });
    renderScreen(<OrganizationPicker />, { session: fakeSession(staffAdmin), route: '/', config: { organizations_enabled: 'true' } });
    const select = await screen.findByTestId('organization-select');
    await waitFor(() => expect(select).toHaveValue('Personal'));
    act(() => select.focus());
    fireEvent.click(select);
    fireEvent.change(select, { target: { value: 'nada de nada' } });
    expect(await screen.findByText('Ninguna organización coincide con tu búsqueda.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(organizationStore.get()).toBeNull();
  });
});
