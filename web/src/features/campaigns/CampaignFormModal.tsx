// Create or edit a campaign (spec part 2 §2 campaigns list '+', Edit Campaign; §4 save rule; §5 'Please
// select an organization'; §8 'Campaign saved'): name, description and a thumbnail image, sent as the
// multipart form of POST/PUT /campaigns.
import { Alert, Button, FileInput, Group as Row, Image, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CAMPAIGN_DESCRIPTION_MAX, CAMPAIGN_NAME_MAX, createCampaignRequest, type Campaign } from '@pluma/common/campaigns';
import { IconPhoto } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { CAMPAIGNS_KEY, saveCampaign } from './campaigns-api';

interface Props {
  /** The campaign being edited, 'new' to create one, null when closed. */
  campaign: Campaign | 'new' | null;
  onClose: () => void;
}

export function CampaignFormModal({ campaign, onClose }: Props) {
  const { t } = useTranslation('campaigns');
  return (
    <Modal opened={campaign !== null} onClose={onClose} title={t(campaign === 'new' ? 'form.createTitle' : 'form.editTitle')} data-testid="campaign-form-modal">
      {campaign !== null && <CampaignForm key={campaign === 'new' ? 'new' : campaign.campaign_id} campaign={campaign === 'new' ? null : campaign} onClose={onClose} />}
    </Modal>
  );
}

interface Values {
  name: string;
  description: string;
}

function CampaignForm({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const { t } = useTranslation('campaigns');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const active = useActiveOrganization();
  const organizationId = campaign?.organization_id ?? active?.organization_id ?? null;
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [removeThumbnail, setRemoveThumbnail] = useState(false);
  const [noOrganization, setNoOrganization] = useState(false);
  const form = useForm<Values>({
    initialValues: { name: campaign?.name ?? '', description: campaign?.description ?? '' },
    validate: formRules<Values>({ schema: createCampaignRequest, payload: (v) => ({ ...v, organization_id: organizationId ?? 1 }) }),
  });
  const inputProps = useLocalizedInputProps(form);
  const save = useMutation({
    mutationFn: (values: Values & { organization_id: number }) =>
      saveCampaign(campaign?.campaign_id ?? null, { ...values, thumbnail, ...(removeThumbnail && !thumbnail ? { remove_thumbnail: true } : {}) }),
    onSuccess: () => {
      showSuccess(t('form.saved'));
      void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body?.details && ('name' in error.body.details || 'description' in error.body.details)) form.setErrors(error.body.details);
      else handleError(error, { showValidation: true });
    },
  });
  const submit = (values: Values) => {
    // spec §5: a campaign is saved only with a selected organization.
    if (organizationId === null) return setNoOrganization(true);
    save.mutate({ ...values, organization_id: organizationId });
  };
  const currentThumbnail = !removeThumbnail && !thumbnail ? campaign?.thumbnail : null;

  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="md">
        {noOrganization && (
          <Alert color="red" role="alert" data-testid="campaign-no-organization">
            {t('form.selectOrganization')}
          </Alert>
        )}
        <TextInput label={t('form.name')} required maxLength={CAMPAIGN_NAME_MAX} data-autofocus {...inputProps('name')} data-testid="campaign-name" />
        <Textarea label={t('form.description')} autosize minRows={2} maxRows={6} maxLength={CAMPAIGN_DESCRIPTION_MAX} {...inputProps('description')} data-testid="campaign-description" />
        {currentThumbnail && (
          <Row gap="sm" align="center">
            <Image src={currentThumbnail} alt={t('form.currentThumbnail')} h={64} w={96} fit="cover" radius="sm" />
            <Button variant="subtle" color="red" size="xs" onClick={() => setRemoveThumbnail(true)} data-testid="campaign-remove-thumbnail">
              {t('form.removeThumbnail')}
            </Button>
          </Row>
        )}
        <FileInput
          label={t('form.thumbnail')}
          accept="image/png,image/jpeg,image/gif,image/webp"
          leftSection={<IconPhoto size={16} aria-hidden />}
          placeholder={t('form.chooseImage')}
          value={thumbnail}
          onChange={setThumbnail}
          clearable
          data-testid="campaign-thumbnail-file"
        />
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="campaign-save">
            {t('form.save')}
          </Button>
        </Row>
      </Stack>
    </form>
  );
}
