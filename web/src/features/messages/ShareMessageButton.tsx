// The Share action of an answer in the chat (MessageItem): an icon button that opens ShareMessageModal.
// Its texts live in the lazily loaded 'messages' namespace; until they arrive the button is not shown,
// so the conversation never waits for them.
import { IconShare } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TooltipIconButton } from '../../ui/TooltipIconButton';

// Loaded on the first click: the modal and the share calls are not needed to show a conversation.
const ShareMessageModal = lazy(() => import('./ShareMessageModal').then((m) => ({ default: m.ShareMessageModal })));

interface ShareMessageButtonProps {
  messageId: number;
  disabled?: boolean;
}

export function ShareMessageButton(props: ShareMessageButtonProps) {
  return (
    <Suspense fallback={null}>
      <ShareAction {...props} />
    </Suspense>
  );
}

function ShareAction({ messageId, disabled }: ShareMessageButtonProps) {
  const { t } = useTranslation('messages');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <TooltipIconButton tooltip={t('share.action')} onClick={() => setOpened(true)} disabled={disabled} data-testid="share-message">
        <IconShare size={16} aria-hidden />
      </TooltipIconButton>
      {opened && (
        // Its own boundary: the button stays while the modal's chunk loads.
        <Suspense fallback={null}>
          <ShareMessageModal messageId={messageId} opened onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
