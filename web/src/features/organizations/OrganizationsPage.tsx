// /organizations (the user's organizations) and /admin/organizations (every organization, staff) — spec
// part 2 §2 "Organizations list": cards with thumbnail, name and tagline; the admin-panel and settings
// icons for non-Members (the card's abilities); a create button for staff only; search disabled while the
// list is empty. Opening a card makes it the active organization. Above the cards, the account's pending
// invitations (issue 30 item 12): it accepts (it becomes a member) or declines.
import { Anchor, Avatar, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { MyOrganizationInvitation, Organization } from '@pluma/common/organizations';
import { IconBuilding, IconPlus, IconSettings, IconUsers } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { CardGrid } from '../../ui/CardGrid';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { switchOrganization } from './organization-context';
import { useErrorHandler } from '../../ui/use-error-handler';
import { acceptInvitation, declineInvitation, invitationAnswered, useMyInvitations, useOrganizationList } from './organizations-api';

export function OrganizationsList({ scope }: { scope: 'mine' | 'all' }) {
  const { t } = useTranslation('organizations');
  const me = useCurrentUser();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useOrganizationList(scope, debounced);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const organizations = list.data?.organizations ?? [];
  // spec part 2 §2: search is disabled when the list is empty (not when a search found nothing).
  const nothingAtAll = list.isSuccess && !debounced && !search && organizations.length === 0;

  /** Acts in `organization` from now on, then opens `to`. */
  const open = (organization: Organization, to: string) => {
    switchOrganization(queryClient, organization);
    void navigate(to);
  };

  return (
    <Stack gap="md" data-testid="organizations-page">
      <PageHeader
        title={t(scope === 'all' ? 'list.allTitle' : 'list.title')}
        actions={
          <>
            {scope === 'mine' && me.staff && (
              <Button component={Link} to="/admin/organizations" variant="default" data-testid="all-organizations">
                {t('list.all')}
              </Button>
            )}
            {me.staff && (
              <Button component={Link} to="/organizations/organization-settings" leftSection={<IconPlus size={16} aria-hidden />} data-testid="create-organization">
                {t('list.create')}
              </Button>
            )}
          </>
        }
      />
      {scope === 'mine' && <Invitations />}
      <SearchInput label={t('list.search')} value={search} onChange={setSearch} disabled={nothingAtAll} maw={420} data-testid="organizations-search" />
      {list.isError && <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="organizations-error" />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && organizations.length === 0}
        emptyText={debounced ? t('list.noMatch') : t(me.staff ? 'list.emptyStaff' : 'list.empty')}
        cardHeight={120}
        testIds={{ loading: 'organizations-loading', empty: 'organizations-empty' }}
      >
        {organizations.map((organization) => (
          <Card key={organization.organization_id} withBorder padding="md" radius="md" data-testid="organization-card">
            <Group wrap="nowrap" align="flex-start" gap="md">
              <Avatar src={organization.thumbnail} alt="" size={56} radius="md">
                <IconBuilding size={26} aria-hidden />
              </Avatar>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Anchor component="button" type="button" fw={600} ta="left" onClick={() => open(organization, '/')} data-testid="open-organization">
                  {organization.name}
                </Anchor>
                {organization.tagline && (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {organization.tagline}
                  </Text>
                )}
              </Stack>
              <Group gap={4} wrap="nowrap">
                {organization.abilities.view_users && (
                  <TooltipIconButton
                    tooltip={t('list.adminPanel')}
                    label={t('list.adminPanelOf', { name: organization.name })}
                    onClick={() => open(organization, '/organization/admin-panel')}
                    data-testid="organization-admin-panel"
                  >
                    <IconUsers size={18} aria-hidden />
                  </TooltipIconButton>
                )}
                {/* spec part 2 §2: non-Members get both icons; a Manager sees the settings, the Admin edits them. */}
                {organization.abilities.view_users && (
                  <TooltipIconButton
                    onClick={() => void navigate(`/organizations/organization-settings/${organization.organization_id}`)}
                    tooltip={t('list.settings')}
                    label={t('list.settingsOf', { name: organization.name })}
                    data-testid="organization-settings"
                  >
                    <IconSettings size={18} aria-hidden />
                  </TooltipIconButton>
                )}
              </Group>
            </Group>
          </Card>
        ))}
      </CardGrid>
    </Stack>
  );
}

/** The account's pending invitations: each names the organization, who invited and the role; Accept or Decline. */
function Invitations() {
  const { t } = useTranslation('organizations');
  const invitations = useMyInvitations();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const answer = useMutation({
    mutationFn: ({ invitation, accept }: { invitation: MyOrganizationInvitation; accept: boolean }) =>
      (accept ? acceptInvitation(invitation.invitation_id) : declineInvitation(invitation.invitation_id)).then(() => undefined),
    onSuccess: (_done, { invitation, accept }) => {
      showSuccess(accept ? t('invitations.accepted', { name: invitation.organization_name }) : t('invitations.declined'));
      void invitationAnswered(queryClient);
    },
    // A 404: it was answered or withdrawn meanwhile; the list is read again.
    onError: (error) => {
      handleError(error);
      void invitationAnswered(queryClient);
    },
  });
  const pending = invitations.data?.invitations ?? [];
  if (pending.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="organization-invitations">
      <Title order={2} fz="md">
        {t('invitations.title')}
      </Title>
      {pending.map((invitation) => (
        <Card key={invitation.invitation_id} withBorder padding="md" radius="md" data-testid="organization-invitation">
          <Group wrap="wrap" gap="md" justify="space-between">
            <Group wrap="nowrap" gap="md" style={{ minWidth: 0, flex: '1 1 240px' }}>
              <Avatar src={invitation.thumbnail} alt="" size={48} radius="md">
                <IconBuilding size={22} aria-hidden />
              </Avatar>
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600}>{invitation.organization_name}</Text>
                <Text size="sm" c="dimmed">
                  {invitation.inviter
                    ? t('invitations.from', { inviter: invitation.inviter, role: t(`roles.${invitation.role}`) })
                    : t('invitations.fromUnknown', { role: t(`roles.${invitation.role}`) })}
                </Text>
              </Stack>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Button
                variant="default"
                onClick={() => answer.mutate({ invitation, accept: false })}
                disabled={answer.isPending}
                aria-label={t('invitations.declineOf', { name: invitation.organization_name })}
                data-testid="decline-invitation"
              >
                {t('invitations.decline')}
              </Button>
              <Button
                onClick={() => answer.mutate({ invitation, accept: true })}
                loading={answer.isPending && answer.variables?.invitation.invitation_id === invitation.invitation_id && answer.variables.accept}
                disabled={answer.isPending}
                aria-label={t('invitations.acceptOf', { name: invitation.organization_name })}
                data-testid="accept-invitation"
              >
                {t('invitations.accept')}
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

export default function OrganizationsPage() {
  return <OrganizationsList scope="mine" />;
}
