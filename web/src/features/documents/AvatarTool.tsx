// The tools panel's Avatars section (spec part 2 §2 "Avatars section: searchable avatar picker, message box
// ('Send a message to your avatar'), Send"): the message goes to the avatar through POST /outputs/generate
// with target 'document', so its answer comes back as `document_avatar` (the editor page appends it). With
// "Give the document as context" the document's text comes first, followed by the spec's instruction.
import { Button, Select, Stack, Switch, Textarea, Title } from '@mantine/core';
import { OUTPUT_PROMPT_MAX, type Output } from '@pluma/common/outputs';
import { withDocumentContext } from '@pluma/common/documents';
import { IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/instance';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useAvatars } from '../avatars/avatars-api';

interface AvatarToolProps {
  /** The document's text now (for the context). */
  documentText: () => string;
  /** The outputs being written: the page waits for their `document_avatar`. */
  onPending: (outputIds: number[]) => void;
  busy: boolean;
}

export function AvatarTool({ documentText, onPending, busy }: AvatarToolProps) {
  const { t } = useTranslation('documents');
  const handleError = useErrorHandler();
  const avatars = useAvatars('mine', '');
  const [avatarId, setAvatarId] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [withContext, setWithContext] = useState(true);
  const send = useMutation({
    mutationFn: () => {
      const prompt = withContext ? withDocumentContext(documentText(), message.trim(), OUTPUT_PROMPT_MAX) : message.trim();
      return api.post<{ outputs: Output[] }>('/outputs/generate', { assistant_id: Number(avatarId), messages: [prompt], target: 'document' });
    },
    onSuccess: ({ outputs }) => {
      setMessage('');
      onPending(outputs.map((o) => o.output_id));
    },
    onError: (error) => handleError(error),
  });
  const ready = avatarId !== null && message.trim() !== '' && !busy;

  return (
    <Stack gap="xs" data-testid="document-avatar-tool">
      <Title order={3} size="h5">
        {t('tools.avatars')}
      </Title>
      <Select
        label={t('tools.avatar')}
        placeholder={t('tools.avatarPlaceholder')}
        searchable
        nothingFoundMessage={t('tools.noAvatars')}
        data={(avatars.data?.avatars ?? []).map((a) => ({ value: String(a.avatar_id), label: a.name }))}
        value={avatarId}
        onChange={setAvatarId}
        data-testid="document-avatar-select"
      />
      <Textarea
        aria-label={t('tools.avatarMessage')}
        placeholder={t('tools.avatarMessage')}
        autosize
        minRows={3}
        maxRows={8}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
        data-testid="document-avatar-message"
      />
      <Switch label={t('tools.useDocument')} checked={withContext} onChange={(event) => setWithContext(event.currentTarget.checked)} data-testid="document-avatar-context" />
      <Button leftSection={<IconSend size={16} aria-hidden />} onClick={() => send.mutate()} disabled={!ready} loading={send.isPending} data-testid="document-avatar-send">
        {t('tools.send')}
      </Button>
    </Stack>
  );
}
