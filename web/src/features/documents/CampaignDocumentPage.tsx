// campaign/{campaignId}/documents/{documentId} (spec part 2 §2 "Campaign document page: toggle Document
// (read-only HTML …) and Edit (editor)"): a document a campaign links, read through
// GET /documents/{id}/campaigns/{campaignId} in the active organization (the API client adds it). The stored
// HTML is shown with DocumentHtml (sanitized again with DOMPurify). The Edit side of the toggle is offered
// only when the server's abilities allow editing (the author) and opens the normal editor page, which reads
// the document in the same organization. Still to build: 'Generate Document' (the template then avatar modal).
import { Anchor, SegmentedControl, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { DocumentHtml } from './DocumentHtml';
import { useCampaignDocument } from './documents-api';

const idOf = (param: string | undefined) => (/^\d+$/.test(param ?? '') ? Number(param) : null);

export default function CampaignDocumentPage() {
  const { t } = useTranslation('documents');
  const navigate = useNavigate();
  const params = useParams();
  const campaignId = idOf(params.campaignId);
  const documentId = idOf(params.documentId);
  const record = useCampaignDocument(campaignId, documentId);
  const back = (
    <Anchor component={Link} to={campaignId === null ? '/organization/campaigns' : `/organization/campaigns/${campaignId}`} size="sm" data-testid="campaign-document-back">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} /> {t('campaign.back')}
    </Anchor>
  );

  if (campaignId === null || documentId === null || record.isError) {
    const gone = campaignId === null || documentId === null || (record.error instanceof ApiError && record.error.status === 404);
    return (
      <Stack gap="md">
        {back}
        <LoadErrorAlert text={gone ? t('campaign.notFound') : t('editor.loadError')} onRetry={gone ? undefined : () => void record.refetch()} retryLabel={t('retry')} data-testid="campaign-document-error" />
      </Stack>
    );
  }
  if (record.isPending) return <Skeleton height={240} data-testid="campaign-document-loading" />;
  const doc = record.data;

  return (
    <Stack gap="md" data-testid="campaign-document-page">
      {back}
      <PageHeader
        title={doc.name}
        actions={
          doc.abilities.edit ? (
            <SegmentedControl
              aria-label={t('campaign.view')}
              value="document"
              onChange={(value) => value === 'edit' && void navigate(`/documents/${doc.document_id}`)}
              data={[
                { value: 'document', label: t('campaign.document') },
                { value: 'edit', label: t('campaign.edit') },
              ]}
              data-testid="campaign-document-toggle"
            />
          ) : undefined
        }
      />
      <DocumentHtml html={doc.content} data-testid="campaign-document-html" />
    </Stack>
  );
}
