// /organization/campaigns (spec part 2 §2 "Campaigns list"): title, search, the four sorts (§9), '+' for
// non-Members (and staff); cards with the thumbnail (a default when none), name, owner's full name and Open;
// a menu Edit Campaign / Delete Campaign / Add Users for non-Members and staff (the campaign's abilities,
// which the server computes the same way: docs/decisions.md "Campaigns"). A Member sees what is granted.
import { ActionIcon, Button, Card, Center, Group as Row, Image, Menu, Select, Stack, Text } from '@mantine/core';
import { CAMPAIGN_SORT_KEYS, CAMPAIGNS_PAGE_SIZE, DEFAULT_CAMPAIGN_SORT, type Campaign, type CampaignSortKey } from '@pluma/common/campaigns';
import type { Organization } from '@pluma/common/organizations';
import { IconDots, IconEdit, IconPlus, IconSpeakerphone, IconTrash, IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { CardGrid } from '../../ui/CardGrid';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { useListControls } from '../../ui/use-list-controls';
import { WithActiveOrganization } from '../organizations';
import { CampaignFormModal } from './CampaignFormModal';
import { useCampaigns } from './campaigns-api';
import { DeleteCampaignModal } from './DeleteCampaignModal';

const CARD_HEIGHT = 290;
const THUMBNAIL_HEIGHT = 140;

export default function CampaignsPage() {
  return <WithActiveOrganization>{(organization) => <CampaignsList organization={organization} />}</WithActiveOrganization>;
}

/** spec §6: the '+' and the campaign menu are for non-Members and staff. */
export function useCanManageCampaigns(organization: Organization) {
  const user = useCurrentUser();
  return organization.role !== 'member' || Boolean(user?.staff);
}

function CampaignsList({ organization }: { organization: Organization }) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const [sortBy, setSortBy] = useState<CampaignSortKey>(DEFAULT_CAMPAIGN_SORT);
  const { search, setSearch, query: debounced, page, setPage, pageCount } = useListControls(CAMPAIGNS_PAGE_SIZE, sortBy);
  const list = useCampaigns(organization.organization_id, debounced, sortBy, page);
  const canCreate = useCanManageCampaigns(organization);
  const [editing, setEditing] = useState<Campaign | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Campaign | null>(null);
  const campaigns = list.data?.campaigns ?? [];

  return (
    <Stack gap="md" data-testid="campaigns-page">
      <PageHeader
        title={t('list.title')}
        description={organization.name}
        actions={
          canCreate && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="create-campaign">
              {t('list.create')}
            </Button>
          )
        }
      />
      <Row align="flex-end" gap="md" wrap="wrap">
        <SearchInput label={t('list.search')} value={search} onChange={setSearch} maw={420} data-testid="campaigns-search" />
        <Select
          label={t('list.sort')}
          data={CAMPAIGN_SORT_KEYS.map((key) => ({ value: key, label: t(`sort.${key}`) }))}
          value={sortBy}
          onChange={(value) => value && setSortBy(value as CampaignSortKey)}
          allowDeselect={false}
          w={{ base: '100%', xs: 220 }}
          data-testid="campaigns-sort"
        />
      </Row>
      {list.isError && <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="campaigns-error" />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && campaigns.length === 0}
        emptyText={debounced ? t('list.noMatch') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'campaigns-loading', empty: 'campaigns-empty' }}
      >
        {campaigns.map((campaign) => {
          const owner = campaign.user ? `${campaign.user.name} ${campaign.user.last_name}`.trim() : t('list.unknownOwner');
          const manages = campaign.abilities.update || campaign.abilities.delete || campaign.abilities.manage_access;
          return (
            <Card key={campaign.campaign_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="campaign-card">
              <Card.Section>
                {campaign.thumbnail ? (
                  <Image src={campaign.thumbnail} alt="" h={THUMBNAIL_HEIGHT} fit="cover" data-testid="campaign-thumbnail" />
                ) : (
                  <Center h={THUMBNAIL_HEIGHT} bg="var(--mantine-color-default-hover)" data-testid="campaign-default-thumbnail">
                    <IconSpeakerphone size={48} stroke={1.3} aria-hidden />
                  </Center>
                )}
              </Card.Section>
              <Stack justify="space-between" gap="xs" mt="sm" style={{ flex: 1 }}>
                <Row justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} lineClamp={1}>
                      {campaign.name}
                    </Text>
                    <Text size="sm" c="var(--pluma-muted)" lineClamp={1} data-testid="campaign-owner">
                      {owner}
                    </Text>
                  </Stack>
                  {manages && (
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" aria-label={t('list.menuOf', { name: campaign.name })} data-testid="campaign-menu">
                          <IconDots size={18} aria-hidden />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {campaign.abilities.update && (
                          <Menu.Item leftSection={<IconEdit size={16} aria-hidden />} onClick={() => setEditing(campaign)} data-testid="edit-campaign">
                            {t('list.edit')}
                          </Menu.Item>
                        )}
                        {campaign.abilities.delete && (
                          <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(campaign)} data-testid="delete-campaign">
                            {t('list.delete')}
                          </Menu.Item>
                        )}
                        {campaign.abilities.manage_access && (
                          <Menu.Item leftSection={<IconUsersPlus size={16} aria-hidden />} onClick={() => void navigate(`/organization/campaigns/${campaign.campaign_id}/users`)} data-testid="campaign-add-users">
                            {t('list.addUsers')}
                          </Menu.Item>
                        )}
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Row>
                <Button component={Link} to={`/organization/campaigns/${campaign.campaign_id}`} variant="light" size="xs" aria-label={t('list.openOf', { name: campaign.name })} data-testid="open-campaign">
                  {t('list.open')}
                </Button>
              </Stack>
            </Card>
          );
        })}
      </CardGrid>
      <ListPagination total={pageCount(list.data?.total)} value={page} onChange={setPage} data-testid="campaigns-pages" />
      <CampaignFormModal campaign={editing} onClose={() => setEditing(null)} />
      <DeleteCampaignModal campaign={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
