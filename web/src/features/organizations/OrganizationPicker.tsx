// The sidebar's organization picker (spec part 2 §2 "organization picker (when enabled)"): Personal and the
// user's organizations; choosing one switches the context and goes home. Typing searches the server (a staff
// admin's list holds every organization, 50 a page; their own come first). Under it, the active
// organization's pages: Groups for everyone, and the organization tabs (users, settings, analytics) only
// for roles the server lets in (spec part 2 §6: a Member has no organization tabs).
import { Badge, NavLink, Select, Stack } from '@mantine/core';
import { IconBuilding, IconChartBar, IconMailOpened, IconPackage, IconSettings, IconSpeakerphone, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { useAppConfig } from '../../platform/config/app-config';
import { isUnder } from '../../platform/session/paths';
import { useSidebarNavigate } from '../../platform/shell/sidebar-navigation';
import { useCurrentUser } from '../../platform/session/session-context';
import { showError } from '../../ui/alerts';
import { switchOrganization } from './organization-context';
import { useOrganizationSearch } from './organization-search-api';
import { useActiveOrganizationQuery, useMyInvitations, useMyOrganizations } from './organizations-api';

const PERSONAL = 'personal';

export default function OrganizationPicker() {
  const { t } = useTranslation('organizations');
  const config = useAppConfig();
  const user = useCurrentUser();
  const enabled = config.on('organizations_enabled');
  const mine = useMyOrganizations(enabled);
  // Invitations waiting for an answer (issue 30 item 12): a link to the organizations list, where they are.
  const invitations = useMyInvitations(enabled).data?.invitations.length ?? 0;
  const active = useActiveOrganization();
  const { record, gone } = useActiveOrganizationQuery();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // On phones, following one of the picker's links closes the sidebar like the other links.
  const onNavigate = useSidebarNavigate();
  // The Select shows the chosen option's label in its search box: only other text is a search.
  const [search, setSearch] = useState('');
  const selectedLabel = active ? active.name : t('picker.personal');
  const found = useOrganizationSearch(search === selectedLabel ? '' : search, enabled);

  // Removed from the active organization, or it was deleted, meanwhile: every call in it would be a 404.
  const lostName = gone ? (active?.name ?? null) : null;
  useEffect(() => {
    if (lostName === null) return;
    switchOrganization(queryClient, null);
    showError(t('picker.lost', { name: lostName }));
    void navigate('/');
  }, [lostName, queryClient, navigate, t]);

  if (!enabled) return null;

  const organizations = mine.data?.organizations ?? [];
  // While searching, the server's matches (the user's own first); else the user's list.
  const listed = found.organizations ?? organizations;
  const options = [{ value: PERSONAL, label: t('picker.personal') }, ...listed.map((o) => ({ value: String(o.organization_id), label: o.name }))];
  // An organization staff opened from the full list is not among the user's own.
  if (active && !listed.some((o) => o.organization_id === active.organization_id)) options.push({ value: String(active.organization_id), label: active.name });

  const choose = (value: string | null) => {
    const id = value && value !== PERSONAL ? Number(value) : null;
    if (id === (active?.organization_id ?? null)) return;
    const next = id === null ? null : ([...listed, ...organizations].find((o) => o.organization_id === id) ?? null);
    switchOrganization(queryClient, next);
    // The page of one context (a record, an organization page) means nothing in the other.
    void navigate('/');
    onNavigate();
  };

  const abilities = record?.abilities;
  const links = active
    ? [
        // spec part 2 §6: every member sees the campaigns granted to them (more by role).
        { to: '/organization/campaigns', label: t('nav.campaigns'), icon: IconSpeakerphone, show: true },
        { to: '/organization/groups', label: t('nav.groups'), icon: IconUsersGroup, show: true },
        { to: '/organization/admin-panel', label: t('nav.users'), icon: IconUsers, show: Boolean(abilities?.view_users) },
        // spec part 2 §2: non-Members see the settings (a Manager read-only; the Admin edits them).
        { to: `/organizations/organization-settings/${active.organization_id}`, label: t('nav.settings'), icon: IconSettings, show: Boolean(abilities?.view_users) },
        { to: '/organization/admin/products', label: t('nav.products'), icon: IconPackage, show: Boolean(abilities?.update) },
        { to: '/organization/analytics', label: t('nav.analytics'), icon: IconChartBar, show: Boolean(abilities?.view_analytics) },
      ].filter((link) => link.show)
    : [];
  const showList = organizations.length > 0 || Boolean(user.staff) || invitations > 0;

  return (
    <Stack gap={4} data-testid="organization-picker">
      {(organizations.length > 0 || active) && (
        <Select
          aria-label={t('picker.label')}
          leftSection={<IconBuilding size={16} aria-hidden />}
          data={options}
          value={active ? String(active.organization_id) : PERSONAL}
          onChange={choose}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={found.searching ? undefined : t('list.noMatch')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="organization-select"
        />
      )}
      {links.map((link) => (
        <NavLink
          key={link.to}
          component={Link}
          to={link.to}
          label={link.label}
          leftSection={<link.icon size={16} aria-hidden />}
          active={isUnder(pathname, link.to)}
          onClick={onNavigate}
          data-testid={`organization-nav-${link.to.split('/')[2]}`}
        />
      ))}
      {invitations > 0 && (
        <NavLink
          component={Link}
          to="/organizations"
          label={t('picker.invitations', { count: invitations })}
          leftSection={<IconMailOpened size={16} aria-hidden />}
          rightSection={
            <Badge size="sm" circle aria-hidden>
              {invitations}
            </Badge>
          }
          onClick={onNavigate}
          data-testid="organization-nav-invitations"
        />
      )}
      {showList && (
        <NavLink component={Link} to="/organizations" label={t('nav.organizations')} active={pathname === '/organizations'} onClick={onNavigate} data-testid="organization-nav-list" />
      )}
    </Stack>
  );
}
