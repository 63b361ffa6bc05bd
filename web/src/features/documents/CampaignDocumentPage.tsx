// campaign/{campaignId}/documents/{documentId} (spec part 2 §2 "Campaign document page: toggle Document
// (read-only HTML plus 'Generate Document') and Edit (editor). Generate opens a two-step modal …; afterwards the
// view moves to edit"; §4; §6). A document a campaign links, read through GET /documents/{id}/campaigns/
// {campaignId} in the active organization (the API client adds it); the stored HTML shown with DocumentHtml
// (sanitized again with DOMPurify). Edit is the editor, here on the page:
// - for whoever may edit it through the campaign (the server's abilities: its author, Admins, Managers who see
//   the campaign, staff) it autosaves to the campaign document (PUT /documents?campaign_id=);
// - for a Member (spec §6: "cannot … edit … resources") it is an unsaved copy of the document, which 'Save as
//   my document' turns into their own Personal document (the app then switches to Personal and opens it) and
//   Word (.docx) downloads as it is (POST /documents/doc-converted).
// 'Generate Document' streams a 'template' generation (use-document-generation.ts) into the edit view.
import { Alert, Anchor, Box, Button, Group, Loader, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import type { DocumentBlock, DocumentRecord } from '@pluma/common/documents';
import { DOCUMENT_CONTENT_LIMIT, DOCUMENT_GENERATE_TEXT_MAX, documentPlainText } from '@pluma/common/rules/document-text';
import { IconArrowLeft, IconCheck, IconDeviceFloppy, IconFileTypeDocx, IconSparkles } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';
import { useActiveOrganization } from '../../api/organization';
import { useAppConfig } from '../../platform/config/app-config';
import { useCurrentUser } from '../../platform/session/session-context';
import { showError, showSuccess } from '../../ui/alerts';
import { downloadBlob } from '../../ui/download';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { usePageTitle } from '../../ui/use-page-title';
import { useCampaign } from '../campaigns';
import { switchOrganization } from '../organizations';
import type { EditorHandle } from './DocumentEditor';
import { DocumentHtml } from './DocumentHtml';
import { campaignDocumentKey, DOCUMENTS_KEY, downloadDocx, useCampaignDocument } from './documents-api';
import { GenerateDocumentModal } from './GenerateDocumentModal';
import type { GenerateInput } from './generation-api';
import { readDraft, usableDraft, useAutosave, type DocumentSnapshot, type SaveState } from './use-autosave';
import { StopGenerationButton } from './StopGenerationButton';
import { useDocumentGeneration } from './use-document-generation';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

const DocumentEditor = lazy(() => import('./DocumentEditor'));

const idOf = (param: string | undefined) => (/^\d+$/.test(param ?? '') ? Number(param) : null);
const fileName = (name: string) => `${name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'document'}.docx`;

type View = 'document' | 'edit';

export default function CampaignDocumentPage() {
  const { t } = useTranslation('documents');
  const params = useParams();
  const campaignId = idOf(params.campaignId);
  const documentId = idOf(params.documentId);
  const record = useCampaignDocument(campaignId, documentId);
  const [view, setView] = useState<View>('document');
  // The editor stays mounted once opened (hidden in the Document view): an unsaved copy or a running
  // generation is not lost by looking at the document.
  const [editorOpened, setEditorOpened] = useState(false);
  const [modalOpen, setModalOpen] = useState(false);
  const [pending, setPending] = useState<GenerateInput | null>(null);
  usePageTitle(record.data?.name ?? t('campaign.document'));
  // The trail names the campaign and the document (issue 30 item 16).
  const campaign = useCampaign(campaignId);
  useBreadcrumbLabel(`/campaign/${params.campaignId ?? ''}`, campaign.data?.name ?? t('campaign.campaign'));
  useBreadcrumbLabel(`/campaign/${params.campaignId ?? ''}/documents/${params.documentId ?? ''}`, record.data?.name ?? t('campaign.document'));
  const back = (
    <Anchor component={Link} to={campaignId === null ? '/organization/campaigns' : `/organization/campaigns/${campaignId}`} size="sm" data-testid="campaign-document-back">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} /> {t('campaign.back')}
    </Anchor>
  );

  if (campaignId === null || documentId === null || record.isError) {
    const gone = campaignId === null || documentId === null || (record.error instanceof ApiError && record.error.status === 404);
    return (
      <Stack gap="md">
        {back}
        <LoadErrorAlert text={gone ? t('campaign.notFound') : t('editor.loadError')} onRetry={gone ? undefined : () => void record.refetch()} retryLabel={t('retry')} data-testid="campaign-document-error" />
      </Stack>
    );
  }
  if (record.isPending) return <Skeleton height={240} data-testid="campaign-document-loading" />;
  const doc = record.data;
  const show = (next: View) => {
    if (next === 'edit') setEditorOpened(true);
    setView(next);
  };

  return (
    <Stack gap="md" data-testid="campaign-document-page">
      {back}
      <PageHeader
        title={doc.name}
        actions={
          <SegmentedControl
            aria-label={t('campaign.view')}
            value={view}
            onChange={(value) => show(value as View)}
            data={[
              { value: 'document', label: t('campaign.document') },
              { value: 'edit', label: t('campaign.edit') },
            ]}
            data-testid="campaign-document-toggle"
          />
        }
      />
      {view === 'document' && (
        <Stack gap="md">
          <Group>
            <Button leftSection={<IconSparkles size={16} aria-hidden />} onClick={() => setModalOpen(true)} data-testid="campaign-document-generate">
              {t('campaignDocument.generateDocument')}
            </Button>
          </Group>
          <DocumentHtml html={doc.content} data-testid="campaign-document-html" />
        </Stack>
      )}
      {editorOpened && (
        <Box style={view === 'edit' ? undefined : { display: 'none' }} data-testid="campaign-document-edit-view">
          <CampaignEditor key={doc.document_id} doc={doc} campaignId={campaignId} pending={pending} onPendingStarted={() => setPending(null)} />
        </Box>
      )}
      <GenerateDocumentModal
        opened={modalOpen}
        campaignId={campaignId}
        onClose={() => setModalOpen(false)}
        onGenerate={(input) => {
          // spec part 2 §4: "document view to edit view after the generate modal".
          setModalOpen(false);
          setPending(input);
          show('edit');
        }}
      />
    </Stack>
  );
}

interface CampaignEditorProps {
  doc: DocumentRecord;
  campaignId: number;
  /** A generation asked in the modal, started once the editor is ready. */
  pending: GenerateInput | null;
  onPendingStarted: () => void;
}

/** The editor and the generation into it; saving is the editor's (autosave) or the reader's copy's (nothing). */
function CampaignEditor({ doc, campaignId, pending, onPendingStarted }: CampaignEditorProps) {
  const user = useCurrentUser();
  const organization = useActiveOrganization();
  const draftScope = `${user.user_id}.${organization?.organization_id ?? 'personal'}`;
  if (doc.abilities.edit) {
    // The same draft as the editor page for this document in this organization (use-autosave.ts).
    const draft = usableDraft(readDraft(draftScope, doc.document_id), doc.updatedAt);
    return <EditableDocument doc={doc} campaignId={campaignId} pending={pending} onPendingStarted={onPendingStarted} draftScope={draftScope} initialBlocks={draft?.blocks ?? doc.blocks} restored={draft !== null} />;
  }
  return <DocumentCopy doc={doc} campaignId={campaignId} pending={pending} onPendingStarted={onPendingStarted} />;
}

/** The editor with a generation streaming into it (use-document-generation.ts); `save` answers the document to generate into. */
function useGeneratingEditor({
  editorRef,
  campaignId,
  pending,
  onPendingStarted,
  save,
}: Pick<CampaignEditorProps, 'campaignId' | 'pending' | 'onPendingStarted'> & { editorRef: RefObject<EditorHandle | null>; save: () => Promise<number | null> }) {
  const [ready, setReady] = useState(false);
  const onReady = useCallback(
    (handle: EditorHandle) => {
      editorRef.current = handle;
      setReady(true);
    },
    [editorRef],
  );
  const streamTarget = useCallback(() => editorRef.current?.stream ?? null, [editorRef]);
  const generation = useDocumentGeneration(streamTarget, { save, campaignId });
  const { generate } = generation;

  useEffect(() => {
    if (!ready || !pending) return;
    onPendingStarted();
    // The document's text goes with the request as context (contract A: document_text).
    void generate({ ...pending, campaign_id: campaignId, document_text: documentPlainText(editorRef.current?.read().blocks ?? []).slice(-DOCUMENT_GENERATE_TEXT_MAX) });
  }, [ready, pending, onPendingStarted, generate, campaignId, editorRef]);

  return { onReady, generation };
}

interface EditableDocumentProps extends CampaignEditorProps {
  draftScope: string;
  initialBlocks: DocumentBlock[];
  restored: boolean;
}

function EditableDocument({ doc, campaignId, pending, onPendingStarted, draftScope, initialBlocks, restored }: EditableDocumentProps) {
  const { t, i18n } = useTranslation('documents');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [downloading, setDownloading] = useState(false);
  const editorRef = useRef<EditorHandle | null>(null);
  // The campaign page does not rename the document: the name stays the one loaded.
  const read = useCallback((): DocumentSnapshot | null => (editorRef.current ? { name: doc.name, ...editorRef.current.read() } : null), [doc.name]);

  const save = useCallback(
    async (snapshot: DocumentSnapshot, current: number | null) => {
      const saved = await api.put<DocumentRecord>('/documents', { document_id: current ?? doc.document_id, ...snapshot }, { query: { campaign_id: campaignId } });
      // The Document view shows what was saved.
      queryClient.setQueryData(campaignDocumentKey(campaignId, saved.document_id), saved);
      void queryClient.invalidateQueries({ queryKey: [...DOCUMENTS_KEY, 'list'] });
      return { documentId: saved.document_id, updatedAt: saved.updatedAt };
    },
    [campaignId, doc.document_id, queryClient],
  );
  const { state, autosave } = useAutosave({
    draftScope,
    documentId: doc.document_id,
    baseUpdatedAt: doc.updatedAt,
    read,
    save,
    initiallyDirty: restored,
    onTooLarge: () => showError(t('editor.tooLarge')),
    onError: (error) => handleError(error),
  });
  // The generation belongs to the document as saved: unsaved changes go first.
  const saveForGeneration = useCallback(async () => {
    if (autosave.dirty) await autosave.saveNow();
    return autosave.dirty ? null : doc.document_id;
  }, [autosave, doc.document_id]);
  const { onReady, generation } = useGeneratingEditor({ editorRef, campaignId, pending, onPendingStarted, save: saveForGeneration });

  const download = async () => {
    setDownloading(true);
    try {
      await autosave.saveNow();
      if (!autosave.dirty) downloadBlob(await downloadDocx(doc.document_id), fileName(doc.name));
    } catch (error) {
      handleError(error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Generating busy={generation.busy} onStop={() => void generation.stop()} stopping={generation.stopping} />
        <Group gap="sm" ml="auto">
          <SaveStatus state={state} />
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            loading={state === 'saving'}
            onClick={() => void autosave.saveNow().then(() => !autosave.dirty && showSuccess(t('editor.saved')))}
            data-testid="campaign-document-save"
          >
            {t('editor.save')}
          </Button>
          {doc.abilities.export && (
            <Button variant="default" leftSection={<IconFileTypeDocx size={16} aria-hidden />} loading={downloading} onClick={() => void download()} data-testid="campaign-document-download">
              {t('tools.word')}
            </Button>
          )}
        </Group>
      </Group>
      {state === 'tooLarge' && (
        <Alert color="red" role="alert">
          {t('editor.tooLarge')}
        </Alert>
      )}
      <Suspense fallback={<PageLoader />}>
        <DocumentEditor initialBlocks={initialBlocks} lang={i18n.language === 'es' ? 'es' : 'en'} label={t('editor.textLabel')} onReady={onReady} onChange={autosave.change} />
      </Suspense>
    </Stack>
  );
}

/**
 * A Member's Edit view: an unsaved copy of the campaign document (spec §6: Members cannot edit resources). A
 * generation is asked against the campaign document (document_id + campaign_id: readable through the campaign)
 * and streams into the copy; 'Save as my document' creates their own Personal document from it.
 */
function DocumentCopy({ doc, campaignId, pending, onPendingStarted }: CampaignEditorProps) {
  const { t, i18n } = useTranslation('documents');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [saving, setSaving] = useState(false);
  const [downloading, setDownloading] = useState(false);
  // Nothing is saved here: the generation is asked against the campaign document the copy came from.
  const noSave = useCallback(async () => doc.document_id, [doc.document_id]);
  const editorRef = useRef<EditorHandle | null>(null);
  const { onReady, generation } = useGeneratingEditor({ editorRef, campaignId, pending, onPendingStarted, save: noSave });

  const saveAsMine = async () => {
    const editor = editorRef.current;
    if (!editor) return;
    const { blocks, content } = editor.read();
    // spec part 2 §5: content shorter than 65000 characters.
    if (content.length >= DOCUMENT_CONTENT_LIMIT) {
      showError(t('editor.tooLarge'));
      return;
    }
    setSaving(true);
    try {
      // Personal (organization_id null): an empty organization_id keeps the API client from adding the active one.
      const saved = await api.post<DocumentRecord>('/documents', { name: doc.name, blocks, content, organization_id: null }, { query: { organization_id: '' } });
      showSuccess(t('campaignDocument.savedAsMine'));
      // A Personal document opens in the Personal context (documents are not in organization scope).
      switchOrganization(queryClient, null);
      void navigate(`/documents/${saved.document_id}`);
    } catch (error) {
      handleError(error);
      setSaving(false);
    }
  };

  // The copy as it is now, as Word (POST /documents/doc-converted: converted, not stored).
  const download = async () => {
    const editor = editorRef.current;
    if (!editor) return;
    setDownloading(true);
    try {
      downloadBlob(await api.post<Blob>('/documents/doc-converted', { name: doc.name, blocks: editor.read().blocks }, { responseType: 'blob' }), fileName(doc.name));
    } catch (error) {
      handleError(error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="sm">
      <Alert color="blue" data-testid="campaign-document-read-only">
        <Text fw={600} size="sm">
          {t('campaignDocument.readOnly')}
        </Text>
        <Text size="sm">{t('campaignDocument.readOnlyHint')}</Text>
      </Alert>
      <Group justify="space-between" gap="sm">
        <Generating busy={generation.busy} onStop={() => void generation.stop()} stopping={generation.stopping} />
        <Group gap="sm" ml="auto">
          <Button variant="default" leftSection={<IconFileTypeDocx size={16} aria-hidden />} loading={downloading} disabled={generation.busy} onClick={() => void download()} data-testid="campaign-document-download">
            {t('tools.word')}
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={saving} disabled={generation.busy} onClick={() => void saveAsMine()} data-testid="campaign-document-save-as-mine">
            {t('campaignDocument.saveAsMine')}
          </Button>
        </Group>
      </Group>
      <Suspense fallback={<PageLoader />}>
        <DocumentEditor initialBlocks={doc.blocks} lang={i18n.language === 'es' ? 'es' : 'en'} label={t('editor.textLabel')} onReady={onReady} onChange={() => undefined} />
      </Suspense>
    </Stack>
  );
}

/** spec part 2 §2 header bar: '{app} is looking for an answer...' with a spinner while the answer is awaited. */
function Generating({ busy, onStop, stopping }: { busy: boolean; onStop: () => void; stopping: boolean }) {
  const { t } = useTranslation('documents');
  const appName = useAppConfig().get('app_name');
  if (!busy) return null;
  return (
    <Group gap="xs" role="status" data-testid="campaign-document-generating">
      <Loader size="sm" aria-hidden />
      <Text fw={600}>{t('editor.generating', { app: appName })}</Text>
      <StopGenerationButton onStop={onStop} stopping={stopping} testId="campaign-document-stop" />
    </Group>
  );
}

function SaveStatus({ state }: { state: SaveState }) {
  const { t } = useTranslation('documents');
  return (
    <Group gap={6} role="status" aria-live="polite" data-testid="campaign-document-save-state" data-state={state}>
      {state === 'saving' && <Loader size="xs" aria-hidden />}
      {state === 'saved' && <IconCheck size={14} aria-hidden />}
      <Text size="sm" c={state === 'error' || state === 'tooLarge' ? 'red' : 'dimmed'}>
        {t(`state.${state}`)}
      </Text>
    </Group>
  );
}
