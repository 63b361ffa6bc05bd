// A message refused with 409 ai_key_required: the avatar answers with the user's trained model, which runs
// on their own OpenAI key, and the key is gone (server messages/avatar-chat.ts). The server's words, and a
// link to Settings, where the key is added (as the avatars' key prompt offers it).
import { Alert, Anchor, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function KeyRequiredAlert({ message, onClose }: { message: string; onClose?: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <Alert
      role="alert"
      color="yellow"
      variant="light"
      p="xs"
      icon={<IconKey size={18} aria-hidden />}
      withCloseButton={Boolean(onClose)}
      onClose={onClose}
      closeButtonLabel={t('keyRequired.dismiss')}
      data-testid="chat-key-required"
    >
      <Text size="sm">
        {message}{' '}
        <Anchor component={Link} to="/settings" size="sm">
          {t('keyRequired.settings')}
        </Anchor>
      </Text>
    </Alert>
  );
}
