// The organization a visit acts in (spec part 2 §4): chosen once per signed-in user by the spec's order,
// switched by the sidebar picker, reset to Personal when the active organization is deleted. Switching
// empties the cache of everything fetched in the other context, so every screen asks again with the new
// organization_id (the API client appends it).
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import type { Organization } from '@pluma/common/organizations';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { organizationStore, useActiveOrganization } from '../../api/organization';
import { useAppConfig } from '../../platform/config/app-config';
import { LoadingScreen } from '../../ui/LoadingScreen';
import { CURRENT_USER_QUERY_KEY, useCurrentUser } from '../../platform/session/session-context';
import { isUnder } from '../../platform/session/paths';
import { usePageTitle } from '../../ui/use-page-title';
import { mayStartInOrganization, selectOrganization } from './organization-selection';
import { MY_ORGANIZATIONS_KEY, useMyOrganizations } from './organizations-api';

/** Queries that do not depend on the context: the configuration, the user, the user's organizations. */
const CONTEXT_FREE = new Set(['appconfig', CURRENT_USER_QUERY_KEY[0]]);
const isContextFree = (key: readonly unknown[]) => CONTEXT_FREE.has(String(key[0])) || (key[0] === MY_ORGANIZATIONS_KEY[0] && key[1] === MY_ORGANIZATIONS_KEY[1]);

/** Makes `next` the active context (null = Personal) and drops what was fetched in the previous one. */
export function switchOrganization(queryClient: QueryClient, next: Pick<Organization, 'organization_id' | 'name'> | null) {
  const current = organizationStore.get();
  if ((current?.organization_id ?? null) === (next?.organization_id ?? null)) return;
  organizationStore.set(next ? { organization_id: next.organization_id, name: next.name } : null);
  // Removed, not refetched in place: a screen of the old context must not show its records for a moment.
  queryClient.removeQueries({ predicate: (query) => !isContextFree(query.queryKey) });
  // The current user's purchase and balance are read in the context (spec part 2 §2 onboarding).
  void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
}

/** The user whose organization was chosen in this page load (the choice runs once per signed-in user). */
let selectedFor: number | null = null;

/** Test hook: forget that the selection ran. */
export function resetOrganizationSelection() {
  selectedFor = null;
}

/**
 * Around the signed-in shell: when organizations are enabled, chooses the starting organization by the
 * spec's order. While a slug, a saved id or a default organization may name one, a loading screen is
 * shown until the list arrives (spec part 2 §2: "a loading screen until organization ... loaded").
 */
export function OrganizationGate({ children }: { children: ReactNode }) {
  const config = useAppConfig();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const enabled = config.on('organizations_enabled');
  const location = useLocation();
  const pending = enabled && selectedFor !== user.user_id;
  const mine = useMyOrganizations(pending);
  const [waiting] = useState(
    () =>
      pending &&
      mayStartInOrganization({
        search: location.search,
        savedId: organizationStore.savedId(),
        savedPersonal: organizationStore.savedPersonal(),
        defaultId: user.default_organization?.organization_id ?? null,
      }),
  );
  const [settled, setSettled] = useState(!waiting);

  useEffect(() => {
    if (!enabled) {
      // Organizations switched off: every request is Personal again.
      if (organizationStore.get()) switchOrganization(queryClient, null);
      return;
    }
    if (!pending || !(mine.data || mine.isError)) return;
    selectedFor = user.user_id;
    const chosen = mine.data
      ? selectOrganization({
          organizations: mine.data.organizations,
          location: { search: window.location.search, hostname: window.location.hostname },
          savedId: organizationStore.savedId(),
          savedPersonal: organizationStore.savedPersonal(),
          defaultId: user.default_organization?.organization_id ?? null,
        })
      : null;
    if (chosen) switchOrganization(queryClient, chosen);
    // Unreachable list: Personal for now, the saved choice kept for the next visit.
    else if (organizationStore.get()) organizationStore.clearActive();
    // Only after the switch: the screens must not mount (and fetch) in the context before it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSettled(true);
  }, [enabled, pending, mine.data, mine.isError, user.user_id, user.default_organization?.organization_id, queryClient]);

  if (!settled) return <LoadingScreen />;
  return children;
}

/**
 * spec part 2 §2, §6: staff menus exist only in Personal. A staff member who opens a back-office page
 * (/admin/...) inside an organization is told so and offered the switch; nothing changes by itself.
 */
export function PersonalOnlyPages({ children }: { children: ReactNode }) {
  const organization = useActiveOrganization();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  if (organization && user.staff && isUnder(pathname, '/admin')) return <SwitchToPersonal organizationName={organization.name} />;
  return children;
}

function SwitchToPersonal({ organizationName }: { organizationName: string }) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  usePageTitle(t('personalOnly.title'));
  return (
    <Card withBorder padding="xl" maw={560} data-testid="personal-only">
      <Stack gap="md">
        <Title order={1} fz="xl">
          {t('personalOnly.title')}
        </Title>
        <Text size="sm">{t('personalOnly.body', { organization: organizationName })}</Text>
        <Button onClick={() => switchOrganization(queryClient, null)} data-testid="switch-to-personal" style={{ alignSelf: 'flex-start' }}>
          {t('personalOnly.switch')}
        </Button>
      </Stack>
    </Card>
  );
}
