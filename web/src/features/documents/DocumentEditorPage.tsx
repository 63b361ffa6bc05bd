// /documents/{documentId} and /documents/new (spec part 2 §2 "Documents and editor"; issue 15 item 1): the
// header bar (the document's name, editable; the save state; Save and Tools), the block editor (its own lazy
// chunk, shown 100 ms after the page — spec part 2 §9) and the tools panel (350 px on the web: Templates,
// Avatars, Prompt, Super Fetch, Download). A new document starts with an empty heading ('Start writing here!' as its placeholder) and
// is created by its first save (spec part 2 §4 "Save rule"). Autosave: use-autosave.ts. Over 65000
// characters: the spec's alert, nothing sent. Generation: use-document-generation.ts, one at a time, the
// document's text as context unless switched off; unapplied ones after a reload: GenerationBanner.
import { Alert, Badge, Box, Button, CloseButton, Divider, Group, Loader, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { DocumentBlock, DocumentRecord } from '@pluma/common/documents';
import { DOCUMENT_FIRST_HEADING, DOCUMENT_GENERATE_TEXT_MAX, DOCUMENT_NAME_MAX, documentPlainText } from '@pluma/common/rules/document-text';
import { IconCheck, IconDeviceFloppy, IconFileTypeDocx, IconTools } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useActiveOrganization } from '../../api/organization';
import { useAppConfig } from '../../platform/config/app-config';
import { useCurrentUser } from '../../platform/session/session-context';
import { showError, showSuccess } from '../../ui/alerts';
import { downloadBlob } from '../../ui/download';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { usePageTitle } from '../../ui/use-page-title';
import type { VoiceAvatar } from './AvatarTool';
import type { EditorHandle } from './DocumentEditor';
import { createDocument, documentKey, DOCUMENTS_KEY, downloadDocx, updateDocument, useDocument } from './documents-api';
import { GenerationBanner } from './GenerationBanner';
import type { GenerateInput } from './generation-api';
import { StopGenerationButton } from './StopGenerationButton';
import { readDraft, usableDraft, useAutosave, type DocumentSnapshot, type SaveState } from './use-autosave';
import { useDocumentGeneration } from './use-document-generation';

const DocumentEditor = lazy(() => import('./DocumentEditor'));
// The tools panel starts closed: its sections (their forms, APIs and schemas) load when it first opens, so the
// editor's first load carries none of them (issue 31 item 5). The panel's Suspense shows the loader meanwhile.
const TemplateTool = lazy(() => import('./TemplateTool').then((m) => ({ default: m.TemplateTool })));
const AvatarTool = lazy(() => import('./AvatarTool').then((m) => ({ default: m.AvatarTool })));
const PromptTool = lazy(() => import('./PromptTool').then((m) => ({ default: m.PromptTool })));
const SuperFetchTool = lazy(() => import('./SuperFetchTool').then((m) => ({ default: m.SuperFetchTool })));

/** spec part 2 §9: the tools panel is 350 px wide on the web. */
export const TOOLS_PANEL_WIDTH = 350;
/** spec part 2 §9: the editor renders 100 ms after the page. */
export const EDITOR_RENDER_DELAY_MS = 100;

// spec part 2 §2: the first block is a heading; 'Start writing here!' is its placeholder, not text (issue 30
// item 6: as text it went out as context and into the Word export).
export const firstBlocks = (): DocumentBlock[] => [{ type: 'heading', props: { level: 1 }, content: [], children: [] }];

const fileName = (name: string) => `${name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'document'}.docx`;

export default function DocumentEditorPage() {
  const { t, i18n } = useTranslation('documents');
  const { documentId: param = 'new' } = useParams();
  const id = /^\d+$/.test(param) ? Number(param) : null;
  // A document just created from /documents/new keeps its editor while the address takes its id.
  const [createdHere, setCreatedHere] = useState<number | null>(null);
  const continued = id !== null && id === createdHere;
  const user = useCurrentUser();
  const organization = useActiveOrganization();
  const draftScope = `${user.user_id}.${organization?.organization_id ?? 'personal'}`;
  const record = useDocument(continued ? null : id);
  const lang = i18n.language === 'es' ? 'es' : 'en';

  if (id !== null && !continued && record.isPending) return <PageLoader />;
  if (record.isError) {
    const gone = record.error instanceof ApiError && record.error.status === 404;
    return <LoadErrorAlert text={gone ? t('editor.notFound') : t('editor.loadError')} onRetry={gone ? undefined : () => void record.refetch()} retryLabel={t('retry')} data-testid="document-error" />;
  }
  const draft = usableDraft(readDraft(draftScope, id), record.data?.updatedAt ?? null);
  const initial: DocumentSnapshot = draft ?? (record.data ? { name: record.data.name, blocks: record.data.blocks, content: record.data.content } : { name: t('editor.untitled'), blocks: firstBlocks(), content: '' });
  return (
    <EditorBody
      key={continued ? 'new' : param}
      documentId={id}
      initial={initial}
      baseUpdatedAt={draft ? draft.baseUpdatedAt : (record.data?.updatedAt ?? null)}
      restored={draft !== null}
      draftScope={draftScope}
      lang={lang}
      onCreated={setCreatedHere}
    />
  );
}

interface EditorBodyProps {
  documentId: number | null;
  initial: DocumentSnapshot;
  baseUpdatedAt: string | null;
  restored: boolean;
  draftScope: string;
  lang: 'en' | 'es';
  onCreated: (documentId: number) => void;
}

function EditorBody({ documentId, initial, baseUpdatedAt, restored, draftScope, lang, onCreated }: EditorBodyProps) {
  const { t } = useTranslation('documents');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const wide = useMediaQuery('(min-width: 62em)');
  const [name, setName] = useState(initial.name);
  const nameRef = useRef(initial.name);
  const editorRef = useRef<EditorHandle | null>(null);
  const [showEditor, setShowEditor] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [createdId, setCreatedId] = useState<number | null>(null);
  const idRef = useRef(documentId);
  const [editorReady, setEditorReady] = useState(false);
  /** The avatar picked in the Avatars section: the document's voice (the header's 'Your tone and style'). */
  const [voice, setVoice] = useState<VoiceAvatar | null>(null);
  const [withContext, setWithContext] = useState(true);
  const config = useAppConfig();
  const appName = config.get('app_name');
  const personal = useActiveOrganization() === null;
  usePageTitle(name || t('editor.untitled'));

  useEffect(() => {
    const timer = setTimeout(() => setShowEditor(true), EDITOR_RENDER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const read = useCallback((): DocumentSnapshot | null => {
    const editor = editorRef.current;
    // spec part 2 §5: the form value cannot be empty — nothing is saved without a name.
    if (!editor || nameRef.current.trim() === '') return null;
    return { name: nameRef.current.trim(), ...editor.read() };
  }, []);

  const save = useCallback(
    async (snapshot: DocumentSnapshot, current: number | null) => {
      const saved: DocumentRecord = current === null ? await createDocument(snapshot) : await updateDocument({ document_id: current, ...snapshot });
      queryClient.setQueryData(documentKey(saved.document_id), saved);
      void queryClient.invalidateQueries({ queryKey: [...DOCUMENTS_KEY, 'list'] });
      return { documentId: saved.document_id, updatedAt: saved.updatedAt };
    },
    [queryClient],
  );

  const { state: saveState, autosave } = useAutosave({
    draftScope,
    documentId,
    baseUpdatedAt,
    read,
    save,
    initiallyDirty: restored,
    onCreated: (created) => {
      idRef.current = created;
      setCreatedId(created);
      onCreated(created);
      void navigate(`/documents/${created}`, { replace: true });
    },
    onTooLarge: () => showError(t('editor.tooLarge')),
    onError: (error) => handleError(error),
  });

  const onReady = useCallback((handle: EditorHandle) => {
    editorRef.current = handle;
    setEditorReady(true);
  }, []);

  // A generation belongs to a saved document: the first one creates a new document.
  const saveForGeneration = useCallback(async () => {
    if (nameRef.current.trim() === '') return null;
    if (autosave.dirty || idRef.current === null) await autosave.saveNow();
    return autosave.dirty ? null : idRef.current;
  }, [autosave]);
  const streamTarget = useCallback(() => editorRef.current?.stream ?? null, []);
  const generation = useDocumentGeneration(streamTarget, { save: saveForGeneration });
  const stopControl = { onStop: () => void generation.stop(), stopping: generation.stopping };
  // Every tool: the voice as persona, and the document's text as context when asked (spec part 2 §2).
  const generate = (input: GenerateInput, file?: File | null) =>
    generation.generate(
      {
        ...input,
        avatar_id: input.avatar_id ?? voice?.avatar_id,
        document_text: withContext ? documentPlainText(editorRef.current?.read().blocks ?? []).slice(-DOCUMENT_GENERATE_TEXT_MAX) : undefined,
      },
      file,
    );

  const saveNow = async () => {
    if (nameRef.current.trim() === '') return;
    await autosave.saveNow();
  };
  // 'Document saved' when the Save button's save went through.
  const onSave = async () => {
    await saveNow();
    if (!autosave.dirty) showSuccess(t('editor.saved'));
  };

  const currentId = documentId ?? createdId;
  const download = async () => {
    setDownloading(true);
    try {
      await saveNow();
      if (autosave.dirty || currentId === null) return;
      downloadBlob(await downloadDocx(currentId), fileName(nameRef.current));
    } catch (error) {
      handleError(error);
    } finally {
      setDownloading(false);
    }
  };

  const nameError = name.trim() === '' ? t('editor.nameRequired') : null;

  return (
    <Stack gap="sm" data-testid="document-page">
      <Paper withBorder p="sm" radius="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          {generation.busy ? (
            <Group gap="xs" style={{ flex: 1, minWidth: 200 }} role="status" data-testid="document-generating">
              <Loader size="sm" aria-hidden />
              <Text fw={600}>{t('editor.generating', { app: appName })}</Text>
              <StopGenerationButton onStop={stopControl.onStop} stopping={stopControl.stopping} testId="document-stop" />
            </Group>
          ) : (
          <TextInput
            aria-label={t('editor.name')}
            value={name}
            maxLength={DOCUMENT_NAME_MAX}
            error={nameError}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setName(next);
              nameRef.current = next;
              autosave.change();
            }}
            style={{ flex: 1, minWidth: 200 }}
            variant="unstyled"
            size="lg"
            fw={600}
            data-testid="document-name"
          />
          )}
          {voice && !generation.busy && (
            <Badge variant="light" size="lg" tt="none" data-testid="document-voice">
              {t('header.voice', { name: voice.name })}
            </Badge>
          )}
          <Group gap="sm">
            <SaveStatus state={saveState} />
            <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => void onSave()} loading={saveState === 'saving'} disabled={nameError !== null} data-testid="document-save">
              {t('editor.save')}
            </Button>
            <Button variant="default" leftSection={<IconTools size={16} aria-hidden />} onClick={() => setToolsOpen((open) => !open)} aria-expanded={toolsOpen} aria-controls="document-tools" data-testid="document-tools-toggle">
              {t('editor.tools')}
            </Button>
          </Group>
        </Group>
      </Paper>
      {saveState === 'tooLarge' && (
        <Alert color="red" role="alert" data-testid="document-too-large">
          {t('editor.tooLarge')}
        </Alert>
      )}
      <GenerationBanner documentId={documentId} ready={editorReady} generation={generation} />
      <Group align="flex-start" gap="md" wrap={wide ? 'nowrap' : 'wrap'}>
        <Box style={{ flex: 1, minWidth: 0 }} py="sm">
          {showEditor ? (
            <Suspense fallback={<PageLoader />}>
              <DocumentEditor initialBlocks={initial.blocks} lang={lang} label={t('editor.textLabel')} placeholder={documentId === null ? DOCUMENT_FIRST_HEADING[lang] : undefined} onReady={onReady} onChange={autosave.change} />
            </Suspense>
          ) : (
            <PageLoader />
          )}
        </Box>
        {toolsOpen && (
          <Paper id="document-tools" withBorder p="md" radius="md" w={wide ? TOOLS_PANEL_WIDTH : '100%'} style={{ flexShrink: 0 }} data-testid="document-tools" aria-label={t('tools.title')} component="aside">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                {t('tools.title')}
              </Title>
              <CloseButton aria-label={t('tools.close')} onClick={() => setToolsOpen(false)} />
            </Group>
            {/* The sections' code and the Templates and Super Fetch words load on first use: only this part waits. */}
            <Suspense fallback={<Loader size="sm" aria-hidden />}>
              <Stack gap="lg">
                <Switch label={t('tools.useDocument')} checked={withContext} onChange={(event) => setWithContext(event.currentTarget.checked)} data-testid="document-context" />
                {/* The server refuses a tool whose feature is switched off (default on): so is its section. */}
                {config.get('templates_enabled') !== 'false' && (
                  <>
                    <TemplateTool busy={generation.busy} onGenerate={generate} stop={stopControl} />
                    <Divider />
                  </>
                )}
                {config.get('avatars_enabled') !== 'false' && (
                  <>
                    <AvatarTool avatar={voice} onAvatarChange={setVoice} busy={generation.busy} onGenerate={generate} stop={stopControl} />
                    <Divider />
                  </>
                )}
                <PromptTool busy={generation.busy} onGenerate={generate} stop={stopControl} />
                {config.on('super_fetch') && personal && (
                  <>
                    <Divider />
                    <SuperFetchTool busy={generation.busy} onGenerate={generate} stop={stopControl} />
                  </>
                )}
                <Divider />
              </Stack>
            </Suspense>
            <Stack gap="xs" mt="lg">
              <Title order={3} size="h5">
                {t('tools.download')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('tools.downloadHint')}
              </Text>
              <Button variant="light" leftSection={<IconFileTypeDocx size={16} aria-hidden />} onClick={() => void download()} loading={downloading} data-testid="document-download-word">
                {t('tools.word')}
              </Button>
            </Stack>
          </Paper>
        )}
      </Group>
    </Stack>
  );
}

function SaveStatus({ state }: { state: SaveState }) {
  const { t } = useTranslation('documents');
  return (
    <Group gap={6} role="status" aria-live="polite" data-testid="document-save-state" data-state={state}>
      {state === 'saving' && <Loader size="xs" aria-hidden />}
      {state === 'saved' && <IconCheck size={14} aria-hidden />}
      <Text size="sm" c={state === 'error' || state === 'tooLarge' ? 'red' : 'dimmed'}>
        {t(`state.${state}`)}
      </Text>
    </Group>
  );
}
