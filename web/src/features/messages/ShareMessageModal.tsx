// Sharing an answer (spec part 2 §7 "POST /messages/share/", §8 'Message Shared'): opening the modal
// creates the public link (or returns the active one), shows it with Copy and Open, and Revoke ends it.
import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import type { MessageShare } from '@pluma/common/messages-api';
import { IconCopy, IconExternalLink, IconLinkOff } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { copyToClipboard } from '../../ui/clipboard';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { revokeShare, shareMessage, shareUrl } from './messages-api';

interface ShareMessageModalProps {
  messageId: number;
  opened: boolean;
  onClose: () => void;
}

export function ShareMessageModal({ messageId, opened, onClose }: ShareMessageModalProps) {
  const { t } = useTranslation('messages');
  const handleError = useErrorHandler();
  const [share, setShare] = useState<MessageShare | null>(null);
  const create = useMutation({
    mutationFn: () => shareMessage(messageId),
    onSuccess: (created) => {
      setShare(created);
      showSuccess(t('share.shared'));
    },
  });
  const revoke = useMutation({
    mutationFn: (shareId: number) => revokeShare(shareId),
    onSuccess: () => {
      showSuccess(t('share.revoked'));
      setShare(null);
      onClose();
    },
    onError: (error) => handleError(error),
  });
  const { mutate: createLink, reset: resetCreate } = create;

  // Opening creates the link (sharing again returns the same one); closing forgets it.
  useEffect(() => {
    if (!opened) return;
    createLink();
    return () => {
      resetCreate();
      setShare(null);
    };
  }, [opened, createLink, resetCreate]);

  const url = share ? shareUrl(share) : '';
  const failure = create.error instanceof ApiError ? create.error.message : t('share.failed');

  return (
    <Modal opened={opened} onClose={onClose} title={t('share.title')} data-testid="share-modal">
      <Text size="sm" c="var(--pluma-muted)">
        {t('share.description')}
      </Text>
      {create.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('share.creating')}</Text>
        </Group>
      )}
      {create.isError && (
        <Alert color="red" variant="light" data-testid="share-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failure}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => createLink()}>
              {t('share.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {share && (
        <Stack gap="md">
          <TextInput label={t('share.link')} value={url} readOnly onFocus={(event) => event.currentTarget.select()} data-testid="share-url" />
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Button
              variant="light"
              color="red"
              leftSection={<IconLinkOff size={16} aria-hidden />}
              onClick={() => revoke.mutate(share.share_id)}
              loading={revoke.isPending}
              data-testid="share-revoke"
            >
              {t('share.revoke')}
            </Button>
            <Group gap="sm">
              <Button component="a" href={share.path} target="_blank" rel="noopener noreferrer" variant="default" leftSection={<IconExternalLink size={16} aria-hidden />}>
                {t('share.open')}
              </Button>
              <Button leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copyToClipboard(url, t('share.copied'))} data-testid="share-copy">
                {t('share.copy')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
