// The tools panel's Avatars section (spec part 2 §2 "Avatars section: searchable avatar picker, message box
// ('Send a message to your avatar'), Send"): the message goes to the avatar as a streamed generation of kind
// 'avatar' (POST /documents/avatar-output). The avatar picked here is also the document's voice: the Prompt
// and Templates sections write in its tone and style (the header says so).
import { Button, Select, Stack, Textarea, Title } from '@mantine/core';
import { DOCUMENT_GENERATE_PROMPT_MAX } from '@pluma/common/documents-generate';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAvatars } from '../avatars';
import type { GenerateInput } from './generation-api';
import { StopGenerationButton, type StopControl } from './StopGenerationButton';

export interface VoiceAvatar {
  avatar_id: number;
  name: string;
}

interface AvatarToolProps {
  avatar: VoiceAvatar | null;
  onAvatarChange: (avatar: VoiceAvatar | null) => void;
  busy: boolean;
  onGenerate: (input: GenerateInput) => Promise<boolean>;
  stop: StopControl;
}

export function AvatarTool({ avatar, onAvatarChange, busy, onGenerate, stop }: AvatarToolProps) {
  const { t } = useTranslation('documents');
  const avatars = useAvatars('mine', '');
  const [message, setMessage] = useState('');
  const ready = avatar !== null && message.trim() !== '' && !busy;
  const send = async () => {
    if (!avatar || !ready) return;
    if (await onGenerate({ kind: 'avatar', avatar_id: avatar.avatar_id, prompt: message.trim() })) setMessage('');
  };
  const options = avatars.data?.avatars ?? [];

  return (
    <Stack gap="xs" data-testid="document-avatar-tool">
      <Title order={3} size="h5">
        {t('tools.avatars')}
      </Title>
      <Select
        label={t('tools.avatar')}
        placeholder={t('tools.avatarPlaceholder')}
        searchable
        clearable
        nothingFoundMessage={t('tools.noAvatars')}
        data={options.map((a) => ({ value: String(a.avatar_id), label: a.name }))}
        value={avatar ? String(avatar.avatar_id) : null}
        onChange={(value) => {
          const picked = options.find((a) => String(a.avatar_id) === value);
          onAvatarChange(picked ? { avatar_id: picked.avatar_id, name: picked.name } : null);
        }}
        data-testid="document-avatar-select"
      />
      <Textarea
        aria-label={t('tools.avatarMessage')}
        placeholder={t('tools.avatarMessage')}
        autosize
        minRows={3}
        maxRows={8}
        maxLength={DOCUMENT_GENERATE_PROMPT_MAX}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
        data-testid="document-avatar-message"
      />
      {busy ? (
        <StopGenerationButton onStop={stop.onStop} stopping={stop.stopping} testId="document-avatar-stop" />
      ) : (
        <Button leftSection={<IconSend size={16} aria-hidden />} onClick={() => void send()} disabled={!ready} data-testid="document-avatar-send">
          {t('tools.send')}
        </Button>
      )}
    </Stack>
  );
}
