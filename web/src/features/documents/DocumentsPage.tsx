// /documents (spec part 2 §2 "Documents and editor"): the user's documents with search and the four sorts,
// 24 per page, New (the editor at /documents/new), Open and Delete (asked first; 'Document deleted').
import { ActionIcon, Anchor, Button, Card, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { DOCUMENT_SORT_KEYS, DOCUMENTS_PAGE_SIZE, type DocumentSortKey, type DocumentSummary } from '@pluma/common/documents';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { CardGrid } from '../../ui/CardGrid';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useListControls } from '../../ui/use-list-controls';
import { usePageTitle } from '../../ui/use-page-title';
import { clearDocumentDrafts } from './use-autosave';
import { deleteDocument, DOCUMENTS_KEY, useDocuments } from './documents-api';
import { formatDateTime } from '../../i18n/format';

const CARD_HEIGHT = 150;

export default function DocumentsPage() {
  const { t, i18n } = useTranslation('documents');
  usePageTitle(t('list.title'));
  const [sortBy, setSortBy] = useState<DocumentSortKey>('updatedAt_desc');
  const controls = useListControls(DOCUMENTS_PAGE_SIZE, sortBy);
  const list = useDocuments({ query: controls.query, sortBy, page: controls.page });
  const documents = list.data?.documents ?? [];
  const [deleting, setDeleting] = useState<DocumentSummary | null>(null);
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: (doc: DocumentSummary) => deleteDocument(doc.document_id),
    onSuccess: async () => {
      setDeleting(null);
      showSuccess(t('list.deleted'));
      // A page left empty steps back to the one before.
      if (documents.length === 1 && controls.page > 1) controls.setPage(controls.page - 1);
      await queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
    },
    onError: (error) => handleError(error),
  });
  const date = (iso: string) => formatDateTime(iso, i18n.language);

  return (
    <Stack gap="md" data-testid="documents-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button component={Link} to="/documents/new" leftSection={<IconPlus size={16} aria-hidden />} data-testid="new-document">
            {t('list.new')}
          </Button>
        }
      />
      <Group gap="md" align="flex-end">
        <SearchInput label={t('list.search')} value={controls.search} onChange={controls.setSearch} maw={420} style={{ flex: 1 }} data-testid="documents-search" />
        <NativeSelect
          label={t('list.sort')}
          value={sortBy}
          onChange={(event) => setSortBy(event.currentTarget.value as DocumentSortKey)}
          data={DOCUMENT_SORT_KEYS.map((key) => ({ value: key, label: t(`sort.${key}`) }))}
          data-testid="documents-sort"
        />
      </Group>
      {list.isError && (
        <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="documents-error" />
      )}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && documents.length === 0}
        emptyText={controls.query ? t('list.noMatch') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'documents-loading', empty: 'documents-empty' }}
      >
        {documents.map((doc) => (
          <Card key={doc.document_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="document-card">
            <Stack justify="space-between" h="100%" gap="xs">
              <Stack gap={4}>
                <Text fw={600} lineClamp={1}>
                  {doc.name}
                </Text>
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {doc.excerpt}
                </Text>
              </Stack>
              <Group justify="space-between" wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {t('list.updated', { date: date(doc.updatedAt) })}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  {doc.abilities.delete && (
                    <ActionIcon variant="subtle" color="red" aria-label={t('list.delete', { name: doc.name })} onClick={() => setDeleting(doc)} data-testid="delete-document">
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  )}
                  <Anchor component={Link} to={`/documents/${doc.document_id}`} size="sm" data-testid="open-document">
                    {t('list.open')}
                  </Anchor>
                </Group>
              </Group>
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <ListPagination total={controls.pageCount(list.data?.total)} value={controls.page} onChange={controls.setPage} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('list.deleteTitle')}
        warning={t('list.deleteWarning', { name: deleting?.name ?? '' })}
        confirmLabel={t('list.deleteConfirm')}
        onConfirm={() => {
          if (!deleting) return;
          clearDocumentDrafts(deleting.document_id);
          remove.mutate(deleting);
        }}
        pending={remove.isPending}
        data-testid="delete-document-modal"
      />
    </Stack>
  );
}
