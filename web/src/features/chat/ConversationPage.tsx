// /conversations/{id} (also /conversation/{id}): the conversation screen (spec part 2 §2 "Conversations").
// A conversation the user may not see answers 404 and is shown as not found.
import { ActionIcon, Button, EmptyState, Group, Menu, Title } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import { useQueryClient } from '@tanstack/react-query';
import { IconArchive, IconArchiveOff, IconDots, IconMessageCircleOff, IconMessages, IconPencil, IconTrash } from '@tabler/icons-react';
import { memo, Suspense, useCallback, useDeferredValue, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { usePageTitle } from '../../ui/use-page-title';
// The edit and delete modals come lazily from conversations/index.ts (with the form rules and schemas they
// bring, they load when first opened, not with the conversation: less script before its messages show).
import { ConversationFormModal, ConversationSidebar, DeleteConversationModal, useConversation, useUpdateConversation } from '../conversations';
import classes from './Chat.module.css';
import { MessageList } from './MessageList';
import { PromptBox } from './PromptBox';
import { useChat } from './use-chat';
import { ConnectionBanner } from './ConnectionBanner';
import { KeyRequiredAlert } from './KeyRequiredAlert';
import { takeFirstPrompt } from './first-prompt';
import { AVATAR_PAGE_SIZE, prefetchLatestPage } from './chat-api';
import { useAvatarChat } from './use-avatar-chat';
import { useOnceTrue } from '../../ui/use-once-true';
import { removeFirstPaint, removeFirstPaintSoon } from '../../prerender/remove-first-paint';

export default function ConversationPage() {
  const { conversationId } = useParams();
  const id = Number(conversationId);
  if (!Number.isSafeInteger(id) || id <= 0) return <ConversationNotFound />;
  // A new conversation starts from a fresh screen state.
  return <ConversationLoader key={id} id={id} />;
}

function ConversationLoader({ id }: { id: number }) {
  const conversation = useConversation(id);
  const queryClient = useQueryClient();
  const { t } = useTranslation('chat');
  // Not cached yet: its newest messages load alongside it, not after it (chat-api.ts).
  const cached = useRef(conversation.data !== undefined);
  useEffect(() => {
    if (!cached.current) prefetchLatestPage(queryClient, id);
  }, [queryClient, id]);
  // The screen mounts in a background render (it yields to the browser) once the conversation is here.
  const data = useDeferredValue(conversation.data);
  // Checked first: a conversation deleted elsewhere may still be cached.
  if (isApiError(conversation.error) && conversation.error.status === 404) return <ConversationNotFound />;
  if (data) return <ChatScreen conversation={data} />;
  if (conversation.isError) {
    removeFirstPaintSoon();
    return (
      <EmptyState icon={<IconMessages size={28} aria-hidden />} withIndicatorBackground title={t('chat.loadFailed')} py={64}>
        <EmptyState.Actions>
          <Button variant="default" onClick={() => void conversation.refetch()}>
            {t('actions.retry')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }
  return <PageLoader />;
}

function ConversationNotFound() {
  const { t } = useTranslation('chat');
  usePageTitle(t('chat.notFound'));
  useLayoutEffect(() => removeFirstPaint(), []);
  return (
    <EmptyState icon={<IconMessageCircleOff size={28} aria-hidden />} withIndicatorBackground title={t('chat.notFound')} description={t('chat.notFoundBody')} py={64} data-testid="conversation-not-found">
      <EmptyState.Actions>
        <Button component={Link} to="/conversations">
          {t('chat.backToList')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

function ChatScreen({ conversation }: { conversation: Conversation }) {
  usePageTitle(conversation.name);
  // spec part 2 §9: an avatar's chat pages by 10 messages.
  const chat = useChat(conversation.conversation_id, conversation.avatar_id !== null ? AVATAR_PAGE_SIZE : undefined);
  const avatar = useAvatarChat(conversation, chat);
  const draft = useFirstPrompt(conversation.conversation_id, avatar.send);
  // The server's picture of this screen (prerender/entry.tsx) stays until its messages are here.
  const shown = chat.state.loaded || chat.loadError !== null;
  useLayoutEffect(() => {
    if (shown) removeFirstPaint();
  }, [shown]);
  return <ChatScreenView conversation={conversation} chat={{ ...chat, send: avatar.send }} draft={draft} avatar={avatar} />;
}

export type ChatScreenState = Pick<
  ReturnType<typeof useChat>,
  'state' | 'generating' | 'loadError' | 'retryLoad' | 'loadingOlder' | 'loadOlder' | 'send' | 'saveEdit' | 'toggleFavorite' | 'answerAgain'
> &
  // Absent in the server's first paint (nothing is sent or stopped there).
  Partial<Pick<ReturnType<typeof useChat>, 'keyRequired' | 'dismissKeyRequired' | 'stop' | 'stopping'>>;

/** Parts of the page where Esc belongs to something else (an inline edit, a dialog, an open list). */
const OWN_ESCAPE = '[data-testid="message-editor"], [role="dialog"], [role="menu"], [role="listbox"], [aria-expanded="true"]';

/**
 * Esc stops the answer being written (issue 30 item 1) while the focus is in the conversation screen (the
 * prompt box, the history) or nowhere in particular; not from a dialog, a menu or a message being edited.
 */
function useStopOnEscape(screen: RefObject<HTMLDivElement | null>, generating: boolean, stop: (() => void) | undefined) {
  useEffect(() => {
    if (!generating || !stop) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      const inScreen = !target || target === document.body || !!screen.current?.contains(target);
      if (!inScreen || target?.closest(OWN_ESCAPE)) return;
      event.preventDefault();
      stop();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [screen, generating, stop]);
}

/** The conversation screen as drawn from its state: the app's, and the server's first paint of it. */
export function ChatScreenView({
  conversation,
  chat,
  draft,
  avatar,
}: {
  conversation: Conversation;
  chat: ChatScreenState;
  draft: string | null;
  /** The avatar control's state (use-avatar-chat.ts); absent in the server's first paint. */
  avatar?: { avatarId: number | null; setAvatarId: (avatarId: number | null) => void };
}) {
  const { t } = useTranslation('chat');
  const { state } = chat;
  const screen = useRef<HTMLDivElement>(null);
  useStopOnEscape(screen, chat.generating, chat.stop);
  // Rewrite last answer (issue 32 item 2): set from the last answer, used by the next prompt.
  const [rework, setRework] = useState(false);
  const startRework = useCallback(() => setRework(true), []);
  return (
    <div className={classes.layout}>
      <ConversationSidebar activeId={conversation.conversation_id} />
      <div className={classes.screen} data-testid="conversation-page" ref={screen}>
        <ConversationHeader conversation={conversation} />
        <ConnectionBanner />
        {chat.loadError && !state.loaded ? (
          <EmptyState icon={<IconMessages size={28} aria-hidden />} withIndicatorBackground title={t('history.loadFailed')} style={{ flex: 1 }}>
            <EmptyState.Actions>
              <Button variant="default" onClick={chat.retryLoad}>
                {t('actions.retry')}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        ) : !state.loaded ? (
          <div className={classes.history}>
            <PageLoader minHeight="100%" />
          </div>
        ) : state.messages.length === 0 ? (
          <div className={classes.history} data-testid="message-history">
            <EmptyState icon={<IconMessages size={28} aria-hidden />} withIndicatorBackground title={t('history.empty')} description={t('history.emptyBody')} py="xl" />
          </div>
        ) : (
          <MessageList
            messages={state.messages}
            hasOlder={state.olderCursor !== null}
            loadingOlder={chat.loadingOlder}
            onLoadOlder={chat.loadOlder}
            busy={chat.generating}
            onSaveEdit={chat.saveEdit}
            onToggleFavorite={chat.toggleFavorite}
            onAnswerAgain={chat.answerAgain}
            onRework={startRework}
          />
        )}
        {chat.keyRequired && <KeyRequiredAlert message={chat.keyRequired} onClose={chat.dismissKeyRequired} />}
        <PromptBox
          conversation={conversation}
          generating={chat.generating}
          onStop={chat.stop}
          stopping={chat.stopping}
          onSend={chat.send}
          draft={draft}
          avatarId={avatar?.avatarId ?? conversation.avatar_id}
          onAvatarChange={avatar?.setAvatarId}
          rework={rework}
          onReworkChange={setRework}
        />
      </div>
    </div>
  );
}

/**
 * A chat started by typing on the list (StartChatBox) sends its first prompt here, once. If it is refused,
 * the text comes back as the prompt box's draft.
 */
function useFirstPrompt(conversationId: number, send: (content: string) => Promise<boolean>): string | null {
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    const prompt = takeFirstPrompt(conversationId);
    if (prompt) void send(prompt).then((sent) => !sent && setDraft(prompt));
    // Once per conversation screen: `send` changing identity must not send again (the queue is empty anyway).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversationId]);
  return draft;
}

const ConversationHeader = memo(function ConversationHeader({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('chat');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const update = useUpdateConversation();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  // Mounted from their first opening on, so later openings and closings keep Mantine's transitions.
  const editorWanted = useOnceTrue(editing);
  const deleteWanted = useOnceTrue(deleting !== null);
  const archive = (archived: boolean) =>
    update.mutate(
      { conversation_id: conversation.conversation_id, archived },
      { onSuccess: () => showSuccess(archived ? t('list.archived') : t('list.unarchived')), onError: (error) => handleError(error) },
    );
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" className={classes.header}>
      <Title order={1} fz={{ base: 20, sm: 24 }} className={classes.title} lineClamp={2}>
        {conversation.name}
      </Title>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label={t('chat.menu')} data-testid="conversation-menu">
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
            {t('actions.edit')}
          </Menu.Item>
          <Menu.Item
            leftSection={conversation.archived ? <IconArchiveOff size={16} aria-hidden /> : <IconArchive size={16} aria-hidden />}
            onClick={() => archive(!conversation.archived)}
          >
            {conversation.archived ? t('actions.unarchive') : t('actions.archive')}
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(conversation)}>
            {t('actions.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {editorWanted && (
        <Suspense fallback={null}>
          <ConversationFormModal
            opened={editing}
            conversation={conversation}
            onClose={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              showSuccess(t('list.saved'));
            }}
          />
        </Suspense>
      )}
      {/* spec part 2 §2: after a conversation is deleted the user lands on /conversations. */}
      {deleteWanted && (
        <Suspense fallback={null}>
          <DeleteConversationModal conversation={deleting} onClose={() => setDeleting(null)} onDeleted={() => void navigate('/conversations', { replace: true })} />
        </Suspense>
      )}
    </Group>
  );
});
