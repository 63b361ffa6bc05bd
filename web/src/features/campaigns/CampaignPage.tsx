// /organization/campaigns/{campaign_id} (spec part 2 §2 "Campaign detail"): the name, search, the
// Documents/Templates toggle, Add for non-Members; cards with the name and delete; a document opens the
// campaign document page (campaign/{campaignId}/documents/{documentId}), a template its edit page. Empty:
// 'No {type}s found'. §8: 'Campaign {type} added/deleted from campaign'. "New document" makes a named, empty
// document in the campaign and opens it (the organization's Documents tab is hidden, so a new team writes its
// first document here; issue 30 item 17); Add says when the organization has none of the type at all.
import { Anchor, Button, Card, Group as Row, SegmentedControl, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CampaignResource, CampaignResourceType } from '@pluma/common/campaigns';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { IconEdit, IconFilePlus, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { CardGrid } from '../../ui/CardGrid';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { WithActiveOrganization } from '../organizations';
import { CampaignFormModal } from './CampaignFormModal';
import { addCampaignResource, campaignKey, createCampaignDocument, removeCampaignResource, useCampaign, useCampaignResources, useResourceCandidates } from './campaigns-api';
import { DeleteCampaignModal } from './DeleteCampaignModal';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

const CARD_HEIGHT = 96;

export const campaignIdParam = (param: string | undefined) => (/^\d+$/.test(param ?? '') ? Number(param) : null);

/** Where a resource card leads: the campaign document page, or the template's edit page. */
export const resourceHref = (resource: Pick<CampaignResource, 'type' | 'resource_id' | 'campaign_id'>) =>
  resource.type === 'document' ? `/campaign/${resource.campaign_id}/documents/${resource.resource_id}` : `/templates/edit-template/${resource.resource_id}`;

export default function CampaignPage() {
  return <WithActiveOrganization>{() => <CampaignDetailView />}</WithActiveOrganization>;
}

function CampaignDetailView() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const campaignId = campaignIdParam(useParams().campaignId);
  const campaign = useCampaign(campaignId);
  useBreadcrumbLabel(`/organization/campaigns/${campaignId ?? ''}`, campaign.data?.name ?? t('detail.crumb'));
  const [type, setType] = useState<CampaignResourceType>('document');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const resources = useCampaignResources(campaignId ?? 0, type, debounced);
  const [adding, setAdding] = useState(false);
  const [creatingDocument, setCreatingDocument] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const typeName = t(`types.${type}`);
  const typeWord = t(`typeWords.${type}`);
  const remove = useMutation({
    mutationFn: (resource: CampaignResource) => removeCampaignResource(resource.campaign_id, resource.type, resource.resource_id),
    onSuccess: (_, resource) => {
      showSuccess(t('resources.removed', { type: t(`typeWords.${resource.type}`) }));
      void queryClient.invalidateQueries({ queryKey: campaignKey(resource.campaign_id) });
    },
    onError: (e) => handleError(e),
  });

  if (campaignId === null || campaign.isError) return <LoadErrorAlert text={screenText({ failure: campaign.error }, t) ?? t('detail.loadError')} data-testid="campaign-error" />;
  if (campaign.isPending) return <Skeleton height={240} data-testid="campaign-loading" />;
  const c = campaign.data;
  const rows = resources.data?.resources ?? [];

  return (
    <Stack gap="md" data-testid="campaign-page">
      <PageHeader
        title={c.name}
        description={c.description || undefined}
        actions={
          <>
            {c.abilities.manage_resources && (
              <Button leftSection={<IconFilePlus size={16} aria-hidden />} onClick={() => setCreatingDocument(true)} data-testid="new-campaign-document">
                {t('newDocument.button')}
              </Button>
            )}
            {c.abilities.manage_resources && (
              <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-resource">
                {t('resources.add', { type: typeName })}
              </Button>
            )}
            {c.abilities.manage_access && (
              <Button variant="default" component={Link} to={`/organization/campaigns/${c.campaign_id}/users`} leftSection={<IconUsers size={16} aria-hidden />} data-testid="campaign-users-link">
                {t('list.addUsers')}
              </Button>
            )}
            {c.abilities.update && (
              <Button variant="default" leftSection={<IconEdit size={16} aria-hidden />} onClick={() => setEditing(true)} data-testid="edit-campaign">
                {t('list.edit')}
              </Button>
            )}
            {c.abilities.delete && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)} data-testid="delete-campaign">
                {t('list.delete')}
              </Button>
            )}
          </>
        }
      />
      <Row align="flex-end" gap="md" wrap="wrap">
        <SegmentedControl
          aria-label={t('detail.type')}
          value={type}
          onChange={(value) => setType(value as CampaignResourceType)}
          data={[
            { value: 'document', label: t('detail.documents') },
            { value: 'template', label: t('detail.templates') },
          ]}
          data-testid="resource-type"
        />
        <SearchInput label={t('detail.search')} value={search} onChange={setSearch} maw={360} data-testid="resources-search" />
      </Row>
      {resources.isError && <LoadErrorAlert text={screenText({ failure: resources.error }, t) ?? t('detail.loadError')} onRetry={() => void resources.refetch()} retryLabel={t('retry')} data-testid="resources-error" />}
      <CardGrid
        pending={resources.isPending}
        empty={resources.isSuccess && rows.length === 0}
        emptyText={t('resources.empty', { type: typeWord })}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'resources-loading', empty: 'resources-empty' }}
      >
        {rows.map((resource) => (
          <Card key={`${resource.type}-${resource.resource_id}`} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="resource-card">
            <Row justify="space-between" wrap="nowrap" align="flex-start" h="100%">
              <Anchor component={Link} to={resourceHref(resource)} fw={600} lineClamp={2} data-testid="resource-link">
                {resource.name}
              </Anchor>
              {c.abilities.manage_resources && (
                <TooltipIconButton
                  tooltip={t('resources.remove')}
                  label={t('resources.removeOf', { name: resource.name })}
                  color="red"
                  loading={remove.isPending && remove.variables === resource}
                  onClick={() => remove.mutate(resource)}
                  data-testid="remove-resource"
                >
                  <IconTrash size={16} aria-hidden />
                </TooltipIconButton>
              )}
            </Row>
          </Card>
        ))}
      </CardGrid>
      <AddResourceModal campaignId={c.campaign_id} type={type} opened={adding} onClose={() => setAdding(false)} />
      <NewDocumentModal campaignId={c.campaign_id} opened={creatingDocument} onClose={() => setCreatingDocument(false)} />
      <CampaignFormModal campaign={editing ? c : null} onClose={() => setEditing(false)} />
      {/* spec part 2 §4: a campaign deleted on its page goes back one step. */}
      <DeleteCampaignModal campaign={deleting ? c : null} onClose={() => setDeleting(false)} onDeleted={() => void navigate(-1)} />
    </Stack>
  );
}

/** Add: one of the organization's documents or templates not in the campaign yet (the server lists them). */
function AddResourceModal({ campaignId, type, opened, onClose }: { campaignId: number; type: CampaignResourceType; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('campaigns');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const candidates = useResourceCandidates(campaignId, type, opened);
  const [chosen, setChosen] = useState<string | null>(null);
  const options = candidates.data?.resources ?? [];
  // None of the type in the whole organization, rather than all of them in the campaign already.
  const noneAtAll = candidates.data?.organization_total === 0;
  const typeName = t(`types.${type}`);
  const typeWord = t(`typeWords.${type}`);
  const close = () => {
    setChosen(null);
    onClose();
  };
  const add = useMutation({
    mutationFn: (resourceId: number) => addCampaignResource(campaignId, type, resourceId),
    onSuccess: () => {
      showSuccess(t('resources.added', { type: typeWord }));
      void queryClient.invalidateQueries({ queryKey: campaignKey(campaignId) });
      close();
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });
  return (
    <Modal opened={opened} onClose={close} title={t('resources.add', { type: typeName })} data-testid="add-resource-modal">
      <Stack gap="md">
        {candidates.isSuccess && options.length === 0 ? (
          <Text size="sm" data-testid="no-resource-candidates">
            {noneAtAll ? t(`resources.noneInOrganization_${type}`) : t('resources.noCandidates', { type: typeWord })}
          </Text>
        ) : (
          <Select
            label={typeName}
            placeholder={t('resources.choose')}
            data={options.map((o) => ({ value: String(o.resource_id), label: o.name }))}
            value={chosen}
            onChange={setChosen}
            searchable
            disabled={!candidates.isSuccess}
            comboboxProps={{ withinPortal: true }}
            data-testid="resource-candidate"
          />
        )}
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={add.isPending}>
            {t('form.cancel')}
          </Button>
          <Button onClick={() => chosen && add.mutate(Number(chosen))} disabled={!chosen} loading={add.isPending} data-testid="add-resource-confirm">
            {t('resources.addConfirm')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}

/** "New document": asks its name, makes it in the campaign, then opens it on the campaign document page. */
function NewDocumentModal({ campaignId, opened, onClose }: { campaignId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [name, setName] = useState('');
  const close = () => {
    setName('');
    onClose();
  };
  const create = useMutation({
    mutationFn: (documentName: string) => createCampaignDocument(campaignId, documentName),
    onSuccess: (created) => {
      showSuccess(t('newDocument.created', { name: created.name }));
      void queryClient.invalidateQueries({ queryKey: campaignKey(campaignId) });
      close();
      void navigate(resourceHref(created));
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });
  const trimmed = name.trim();
  return (
    <Modal opened={opened} onClose={close} title={t('newDocument.title')} data-testid="new-campaign-document-modal">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) create.mutate(trimmed);
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('newDocument.name')}
            placeholder={t('newDocument.placeholder')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            required
            maxLength={200}
            data-autofocus
            data-testid="new-campaign-document-name"
          />
          <Row justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {t('newDocument.cancel')}
            </Button>
            <Button type="submit" disabled={!trimmed} loading={create.isPending} data-testid="new-campaign-document-create">
              {t('newDocument.create')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
