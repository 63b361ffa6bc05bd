// /templates/apply-template/{id}/{conversation_id} and /templates/apply-avatar/{id}/{avatar_id} (spec part 2
// §2 "Apply screen", §4 "Templates"): the form, and after Generate the chat of the conversation the filled
// prompt was sent to — side by side from 1200 px, one view at a time below (form, then chat after Generate).
// conversation_id "new" (the templates page's Apply) creates the conversation on the first Generate, named
// after the template; apply-avatar creates one too and sends with the avatar. 'Browse Templates' swaps the
// browser in for the form; applying one there loads it (the conversation stays).
import { Anchor, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Template } from '@pluma/common/templates';
import { IconLayoutGrid, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { screenText } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useAvatar } from '../avatars';
import { useCreateConversation } from '../conversations';
import { ApplyChat, type QueuedPrompt } from './ApplyChat';
import { ApplyForm } from './ApplyForm';
import { ALL_VIEW, TemplateBrowser, type BrowserView } from './TemplateBrowser';
import classes from './Templates.module.css';
import { useTemplate } from './templates-api';
import { NEW_CONVERSATION } from './TemplatesPage';

/** spec part 2 §2: side by side on desktop, alternating under 1200px. */
export const SIDE_BY_SIDE_QUERY = '(min-width: 1200px)';

const positiveId = (raw: string | undefined) => {
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

export default function ApplyTemplatePage() {
  const params = useParams();
  const templateId = positiveId(params.templateId);
  const avatarId = params.avatarId !== undefined ? positiveId(params.avatarId) : null;
  const routeConversation = params.conversationId === NEW_CONVERSATION ? null : positiveId(params.conversationId);
  const valid = templateId !== null && (params.avatarId !== undefined ? avatarId !== null : params.conversationId === NEW_CONVERSATION || routeConversation !== null);
  if (!valid) return <NotFound />;
  return <ApplyScreen templateId={templateId} avatarId={avatarId} routeConversation={routeConversation} />;
}

function NotFound() {
  const { t } = useTranslation('templates');
  return (
    <Stack gap="sm" data-testid="template-not-found">
      <Text>{t('editor.notFound')}</Text>
      <Anchor component={Link} to="/templates">
        {t('editor.backToList')}
      </Anchor>
    </Stack>
  );
}

function ApplyScreen({ templateId, avatarId, routeConversation }: { templateId: number; avatarId: number | null; routeConversation: number | null }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const organization = useActiveOrganization();
  const createConversation = useCreateConversation();
  const sideBySide = useMediaQuery(SIDE_BY_SIDE_QUERY, true);
  const template = useTemplate(templateId);
  const avatar = useAvatar(avatarId);
  // Kept across templates picked in the browser: the same conversation gets their prompts.
  const [conversationId, setConversationId] = useState<number | null>(routeConversation);
  const [queued, setQueued] = useState<QueuedPrompt | null>(null);
  const [chatBusy, setChatBusy] = useState(false);
  const [starting, setStarting] = useState(false);
  const [browsing, setBrowsingState] = useState(false);
  // The button that swapped the view goes away with it: focus moves to its counterpart (keyboard users).
  const focusNext = useRef<'close' | 'browse' | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const browseButton = useRef<HTMLButtonElement>(null);
  const setBrowsing = (next: boolean) => {
    focusNext.current = next ? 'close' : 'browse';
    setBrowsingState(next);
  };
  useEffect(() => {
    const target = focusNext.current === 'close' ? closeButton.current : focusNext.current === 'browse' ? browseButton.current : null;
    focusNext.current = null;
    target?.focus();
  }, [browsing]);
  const [browserView, setBrowserView] = useState<BrowserView>(ALL_VIEW);
  const [view, setView] = useState<'form' | 'chat'>('form');
  const onBusyChange = useCallback((busy: boolean) => setChatBusy(busy), []);

  const applyPath = (id: number, conversation: number | null) =>
    avatarId !== null ? `/templates/apply-avatar/${id}/${avatarId}` : `/templates/apply-template/${id}/${conversation ?? NEW_CONVERSATION}`;

  const generate = async (current: Template, values: Record<string, string>) => {
    setStarting(true);
    try {
      // POST /messages fills the prompt server-side from the template and values (and records the use, its
      // "Last Used" order): a prompt hidden from this user (show_prompt off) never reaches the browser.
      let id = conversationId;
      if (id === null) {
        const created = await createConversation.mutateAsync({ name: current.name, organization_id: organization?.organization_id ?? null, ...(avatarId !== null ? { avatar_id: avatarId } : {}) });
        if (!created) return;
        id = created.conversation_id;
        setConversationId(id);
        // The address names the conversation now (a reload keeps it); apply-avatar keeps the avatar's.
        if (avatarId === null) void navigate(applyPath(current.template_id, id), { replace: true });
      }
      setQueued((last) => ({ templateId: current.template_id, values, seq: (last?.seq ?? 0) + 1 }));
      setView('chat');
    } catch (error) {
      handleError(error, { showValidation: true });
    } finally {
      setStarting(false);
    }
  };

  const pick = (picked: Template) => {
    setBrowsing(false);
    setView('form');
    void navigate(applyPath(picked.template_id, conversationId));
  };

  if (template.error instanceof ApiError && template.error.status === 404) return <NotFound />;
  if (avatarId !== null && avatar.error instanceof ApiError && avatar.error.status === 404) return <NotFound />;
  if (template.isError)
    return <LoadErrorAlert text={screenText({ failure: template.error }, t) ?? t('editor.loadError')} onRetry={() => void template.refetch()} retryLabel={t('retry')} data-testid="template-error" />;
  if (!template.data) return <PageLoader />;
  const current = template.data;

  const left = browsing ? (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button ref={closeButton} variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={() => setBrowsing(false)} data-testid="close-browser">
          {t('apply.closeBrowser')}
        </Button>
      </Group>
      <TemplateBrowser view={browserView} onViewChange={setBrowserView} onPick={pick} />
    </Stack>
  ) : (
    <ApplyForm key={current.template_id} template={current} busy={starting || chatBusy} onGenerate={(values) => void generate(current, values)} />
  );
  const right =
    conversationId !== null ? (
      <ApplyChat key={conversationId} conversationId={conversationId} queued={queued} avatarId={avatarId} onBusyChange={onBusyChange} />
    ) : (
      <Text size="sm" c="dimmed" py="xl" ta="center" data-testid="apply-chat-placeholder">
        {t('apply.chatPlaceholder')}
      </Text>
    );

  return (
    <Stack gap="md" data-testid="apply-page">
      <PageHeader
        title={t('apply.title', { name: current.name })}
        description={avatarId !== null && avatar.data ? t('apply.withAvatar', { name: avatar.data.name }) : t('apply.description')}
        actions={
          !browsing && (
            <Button ref={browseButton} variant="default" leftSection={<IconLayoutGrid size={16} aria-hidden />} onClick={() => setBrowsing(true)} data-testid="browse-templates">
              {t('apply.browse')}
            </Button>
          )
        }
      />
      {sideBySide ? (
        <div className={classes.split} data-testid="apply-side-by-side">
          {left}
          {right}
        </div>
      ) : (
        <Stack gap="md">
          {conversationId !== null && (
            <SegmentedControl
              value={view}
              onChange={(value) => setView(value as 'form' | 'chat')}
              data={[
                { value: 'form', label: t('apply.formView') },
                { value: 'chat', label: t('apply.chatView') },
              ]}
              aria-label={t('apply.viewLabel')}
              data-testid="apply-view"
            />
          )}
          {/* Both stay mounted (the chat keeps hearing its answer while the form shows). */}
          <div hidden={conversationId !== null && view !== 'form'}>{left}</div>
          {conversationId !== null && <div hidden={view !== 'chat'}>{right}</div>}
        </Stack>
      )}
    </Stack>
  );
}
