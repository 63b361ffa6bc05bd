// Deleting a campaign (spec part 2 §8 'Campaign deleted'): its documents and templates stay, only the links
// and grants go; on its own page it goes back one step (§4).
import type { Campaign } from '@pluma/common/campaigns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { campaignKey, CAMPAIGNS_KEY, deleteCampaign } from './campaigns-api';

interface Props {
  campaign: Pick<Campaign, 'campaign_id' | 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteCampaignModal({ campaign, onClose, onDeleted }: Props) {
  const { t } = useTranslation('campaigns');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: (campaignId: number) => deleteCampaign(campaignId),
    onSuccess: (_, campaignId) => {
      showSuccess(t('delete.done'));
      queryClient.removeQueries({ queryKey: campaignKey(campaignId) });
      void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      onClose();
      onDeleted?.();
    },
    onError: (e) => handleError(e),
  });
  return (
    <ConfirmModal
      opened={campaign !== null}
      onClose={onClose}
      title={t('delete.title')}
      warning={t('delete.warning', { name: campaign?.name ?? '' })}
      onConfirm={() => campaign && remove.mutate(campaign.campaign_id)}
      confirmLabel={t('delete.confirm')}
      pending={remove.isPending}
      data-testid="delete-campaign-modal"
    />
  );
}
