// /organization/campaigns/{campaign_id}/users (spec part 2 §2 "Campaign users page"): the owner's name, the
// Users table (#ID, Name, Email, Role, Actions) and the Groups table (#ID, Name, Actions), each with an add
// button and per-row revoke (§6 "Campaign access can be granted or revoked per user or group"; §8 'Gave
// campaign access', 'Removed Access'; §8: a grant's failure shows the server's error).
import { Button, Group as Row, Select, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { CampaignAccessRequest } from '@pluma/common/campaigns';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { LabelledTd, ListTable } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { TableStateRows } from '../../ui/TableStateRows';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { WithActiveOrganization } from '../organizations';
import { campaignIdParam } from './CampaignPage';
import { campaignKey, giveCampaignAccess, revokeCampaignAccess, useAccessCandidates, useCampaign } from './campaigns-api';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

const ROLE_OF: Record<number, string> = { 1: 'admin', 2: 'manager', 3: 'member' };

export default function CampaignUsersPage() {
  return <WithActiveOrganization>{() => <CampaignUsersView />}</WithActiveOrganization>;
}

function CampaignUsersView() {
  const { t } = useTranslation('campaigns');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const campaignId = campaignIdParam(useParams().campaignId);
  const campaign = useCampaign(campaignId);
  useBreadcrumbLabel(`/organization/campaigns/${campaignId ?? ''}`, campaign.data?.name ?? t('detail.crumb'));
  const [adding, setAdding] = useState<'user' | 'group' | null>(null);
  const revoke = useMutation({
    mutationFn: (body: CampaignAccessRequest) => revokeCampaignAccess(campaignId ?? 0, body),
    onSuccess: () => {
      showSuccess(t('access.removed'));
      void queryClient.invalidateQueries({ queryKey: campaignKey(campaignId ?? 0) });
    },
    onError: (e) => handleError(e),
  });

  if (campaignId === null || campaign.isError) return <LoadErrorAlert text={screenText({ failure: campaign.error }, t) ?? t('detail.loadError')} data-testid="campaign-error" />;
  if (campaign.isPending) return <Skeleton height={240} data-testid="campaign-loading" />;
  const c = campaign.data;
  const manages = c.abilities.manage_access;
  const owner = c.user ? `${c.user.name} ${c.user.last_name}`.trim() : t('list.unknownOwner');
  const revoking = (body: CampaignAccessRequest) => revoke.isPending && JSON.stringify(revoke.variables) === JSON.stringify(body);

  return (
    <Stack gap="lg" data-testid="campaign-users-page">
      <PageHeader title={c.name} description={<span data-testid="campaign-owner">{t('access.owner', { name: owner })}</span>} />
      <Stack gap="sm">
        <SectionHeader title={t('access.users')} addLabel={manages ? t('access.addUser') : null} onAdd={() => setAdding('user')} testId="add-campaign-user" />
        <ListTable
          minWidth={560}
          stacked
          verticalSpacing="xs"
          data-testid="campaign-users"
          head={
            <>
              <Table.Th>{t('access.id')}</Table.Th>
              <Table.Th>{t('access.name')}</Table.Th>
              <Table.Th>{t('access.email')}</Table.Th>
              <Table.Th>{t('access.role')}</Table.Th>
              {manages && <Table.Th>{t('access.actions')}</Table.Th>}
            </>
          }
        >
          <TableStateRows pending={false} empty={c.campaign_users.length === 0} columns={manages ? 5 : 4} emptyText={t('access.noUsers')} emptyTestId="campaign-users-empty" />
          {c.campaign_users.map((user) => {
            const name = `${user.name} ${user.last_name}`.trim() || user.email;
            return (
              <Table.Tr key={user.user_id} data-testid="campaign-user-row">
                <LabelledTd label={t('access.id')}>#{user.user_id}</LabelledTd>
                <LabelledTd label={t('access.name')}>{name}</LabelledTd>
                <LabelledTd label={t('access.email')}>{user.email}</LabelledTd>
                <LabelledTd label={t('access.role')}>{user.user_type_id ? t(`roles.${ROLE_OF[user.user_type_id] ?? 'member'}`) : '—'}</LabelledTd>
                {manages && (
                  <LabelledTd label={t('access.actions')}>
                    <TooltipIconButton tooltip={t('access.revoke')} label={t('access.revokeOf', { name })} color="red" loading={revoking({ user_id: user.user_id })} onClick={() => revoke.mutate({ user_id: user.user_id })} data-testid="revoke-user">
                      <IconX size={16} aria-hidden />
                    </TooltipIconButton>
                  </LabelledTd>
                )}
              </Table.Tr>
            );
          })}
        </ListTable>
      </Stack>
      <Stack gap="sm">
        <SectionHeader title={t('access.groups')} addLabel={manages ? t('access.addGroup') : null} onAdd={() => setAdding('group')} testId="add-campaign-group" />
        <ListTable
          minWidth={400}
          stacked
          verticalSpacing="xs"
          data-testid="campaign-groups"
          head={
            <>
              <Table.Th>{t('access.id')}</Table.Th>
              <Table.Th>{t('access.name')}</Table.Th>
              {manages && <Table.Th>{t('access.actions')}</Table.Th>}
            </>
          }
        >
          <TableStateRows pending={false} empty={c.campaign_groups.length === 0} columns={manages ? 3 : 2} emptyText={t('access.noGroups')} emptyTestId="campaign-groups-empty" />
          {c.campaign_groups.map((group) => (
            <Table.Tr key={group.group_id} data-testid="campaign-group-row">
              <LabelledTd label={t('access.id')}>#{group.group_id}</LabelledTd>
              <LabelledTd label={t('access.name')}>{group.name}</LabelledTd>
              {manages && (
                <LabelledTd label={t('access.actions')}>
                  <TooltipIconButton tooltip={t('access.revoke')} label={t('access.revokeOf', { name: group.name })} color="red" loading={revoking({ group_id: group.group_id })} onClick={() => revoke.mutate({ group_id: group.group_id })} data-testid="revoke-group">
                    <IconX size={16} aria-hidden />
                  </TooltipIconButton>
                </LabelledTd>
              )}
            </Table.Tr>
          ))}
        </ListTable>
      </Stack>
      {manages && <GiveAccessModal campaignId={c.campaign_id} kind={adding} onClose={() => setAdding(null)} />}
    </Stack>
  );
}

function GiveAccessModal({ campaignId, kind, onClose }: { campaignId: number; kind: 'user' | 'group' | null; onClose: () => void }) {
  const { t } = useTranslation('campaigns');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const candidates = useAccessCandidates(campaignId, kind !== null);
  const [chosen, setChosen] = useState<string | null>(null);
  const options =
    kind === 'group'
      ? (candidates.data?.groups ?? []).map((g) => ({ value: String(g.group_id), label: g.name }))
      : (candidates.data?.users ?? []).map((u) => ({ value: String(u.user_id), label: `${`${u.name} ${u.last_name}`.trim() || u.email} · ${u.email}` }));
  const close = () => {
    setChosen(null);
    onClose();
  };
  const give = useMutation({
    mutationFn: (id: number) => giveCampaignAccess(campaignId, kind === 'group' ? { group_id: id } : { user_id: id }),
    onSuccess: () => {
      showSuccess(t('access.given'));
      void queryClient.invalidateQueries({ queryKey: campaignKey(campaignId) });
      close();
    },
    // spec §8: a grant's failure shows the server's error.
    onError: (e) => handleError(e, { showValidation: true }),
  });
  return (
    <Modal opened={kind !== null} onClose={close} title={t(kind === 'group' ? 'access.addGroup' : 'access.addUser')} data-testid="give-access-modal">
      <Stack gap="md">
        {candidates.isSuccess && options.length === 0 ? (
          <Text size="sm" data-testid="no-access-candidates">
            {t(kind === 'group' ? 'access.noGroupCandidates' : 'access.noUserCandidates')}
          </Text>
        ) : (
          <Select
            label={t(kind === 'group' ? 'access.group' : 'access.user')}
            placeholder={t('access.choose')}
            data={options}
            value={chosen}
            onChange={setChosen}
            searchable
            disabled={!candidates.isSuccess}
            comboboxProps={{ withinPortal: true }}
            data-testid="access-candidate"
          />
        )}
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={give.isPending}>
            {t('form.cancel')}
          </Button>
          <Button onClick={() => chosen && give.mutate(Number(chosen))} disabled={!chosen} loading={give.isPending} data-testid="give-access">
            {t('access.give')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}

/** A table's title, with its add button for those who manage access. */
function SectionHeader({ title, addLabel, onAdd, testId }: { title: string; addLabel: string | null; onAdd: () => void; testId: string }) {
  return (
    <Row justify="space-between">
      <Title order={2} size="h4">
        {title}
      </Title>
      {addLabel && (
        <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={onAdd} data-testid={testId}>
          {addLabel}
        </Button>
      )}
    </Row>
  );
}
