// /tutorials (spec part 2 §2 "Tutorials": lists tutorials by language with thumbnails): a language switch
// (the UI's language first), search, cards linking to /tutorials/{id}, pages of 24. Staff admins get New,
// Edit, Delete (after a confirmation) and Move up / Move down — plain buttons, so the keyboard orders too;
// focus stays on the moved tutorial's button and the move is announced.
import { Anchor, Button, Card, Group, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS, type Lang } from '@pluma/common/constants';
import type { Tutorial, TutorialLanguage } from '@pluma/common/tutorials';
import { IconArrowDown, IconArrowUp, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n';
import { showSuccess } from '../../ui/alerts';
import { CardGrid } from '../../ui/CardGrid';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { TutorialFormModal } from './TutorialFormModal';
import { THUMBNAIL_HEIGHT, TutorialThumbnail } from './TutorialThumbnail';
import { deleteTutorial, fetchTutorials, reorderTutorials, TUTORIALS_KEY, useTutorials } from './tutorials-api';

const CARD_HEIGHT = THUMBNAIL_HEIGHT + 130;
type Direction = 'up' | 'down';

export default function TutorialsPage() {
  const { t } = useTranslation('tutorials');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [language, setLanguage] = useState<TutorialLanguage>(() => currentLanguage() as Lang);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // A new search or language starts at page 1 (the page belongs to the list it was chosen in).
  const listKey = `${language}|${debounced}`;
  const [pageOf, setPageOf] = useState({ key: listKey, page: 1 });
  const page = pageOf.key === listKey ? pageOf.page : 1;
  const setPage = (next: number) => setPageOf({ key: listKey, page: next });
  const filters = { language, query: debounced, page };
  const list = useTutorials(filters);
  const [editing, setEditing] = useState<Tutorial | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tutorial | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<{ id: number; direction: Direction } | null>(null);
  const data = list.data;
  const tutorials = useMemo(() => data?.tutorials ?? [], [data]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  // A page left empty (its last tutorial deleted) steps back to the one before.
  if (data && data.page === page && data.tutorials.length === 0 && page > 1) setPage(page - 1);

  const move = useMutation({
    mutationFn: async ({ tutorial, direction }: { tutorial: Tutorial; direction: Direction }) => {
      const index = tutorials.findIndex((x) => x.tutorial_id === tutorial.tutorial_id);
      let neighbour = tutorials[direction === 'up' ? index - 1 : index + 1];
      let targetPage = page;
      if (!neighbour) {
        // At a page's edge the neighbour is on the page before or after.
        targetPage = direction === 'up' ? page - 1 : page + 1;
        const other = await fetchTutorials({ ...filters, page: targetPage });
        neighbour = direction === 'up' ? other.tutorials[other.tutorials.length - 1] : other.tutorials[0];
      }
      if (!neighbour) return null;
      // The two exchange their places: the one listed first takes the earlier place.
      await reorderTutorials(direction === 'up' ? [tutorial.tutorial_id, neighbour.tutorial_id] : [neighbour.tutorial_id, tutorial.tutorial_id]);
      return { targetPage };
    },
    onSuccess: async (result, { tutorial, direction }) => {
      if (!result) return;
      focusAfterMove.current = { id: tutorial.tutorial_id, direction };
      await queryClient.invalidateQueries({ queryKey: TUTORIALS_KEY });
      if (result.targetPage !== page) setPage(result.targetPage);
      setAnnouncement(t(direction === 'up' ? 'list.movedUp' : 'list.movedDown', { name: tutorial.name }));
    },
    onError: (e) => handleError(e),
  });

  // Keyboard users keep their place: focus returns to the moved tutorial's button (or its other one at an end).
  useEffect(() => {
    const target = focusAfterMove.current;
    if (!target || !tutorials.some((x) => x.tutorial_id === target.id)) return;
    focusAfterMove.current = null;
    const button = (direction: Direction) => document.querySelector<HTMLButtonElement>(`[data-move="${target.id}-${direction}"]`);
    const same = button(target.direction);
    (same && !same.disabled ? same : button(target.direction === 'up' ? 'down' : 'up'))?.focus();
  }, [tutorials]);

  const remove = useMutation({
    mutationFn: (tutorialId: number) => deleteTutorial(tutorialId),
    onSuccess: (_, tutorialId) => {
      showSuccess(t('delete.done'));
      queryClient.removeQueries({ queryKey: [...TUTORIALS_KEY, 'one', tutorialId] });
      void queryClient.invalidateQueries({ queryKey: TUTORIALS_KEY });
      setDeleting(null);
    },
    onError: (e) => handleError(e),
  });

  const firstOverall = (index: number) => page === 1 && index === 0;
  const lastOverall = (index: number) => page === pages && index === tutorials.length - 1;

  return (
    <Stack gap="md" data-testid="tutorials-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          data?.canManage && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="new-tutorial">
              {t('list.new')}
            </Button>
          )
        }
      />
      <Group gap="md" align="flex-end" wrap="wrap">
        <SegmentedControl
          value={language}
          onChange={(value) => setLanguage(value as TutorialLanguage)}
          aria-label={t('list.language')}
          data={[
            { value: 'en', label: t('language.en') },
            { value: 'es', label: t('language.es') },
          ]}
          data-testid="tutorials-language"
        />
        <SearchInput label={t('list.search')} value={search} onChange={setSearch} maw={420} style={{ flex: '1 1 240px' }} data-testid="tutorials-search" />
      </Group>
      {list.isError && <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="tutorials-error" />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && tutorials.length === 0}
        emptyText={debounced ? t('list.noMatch') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'tutorials-loading', empty: 'tutorials-empty' }}
      >
        {tutorials.map((tutorial, index) => (
          <Card key={tutorial.tutorial_id} withBorder radius="md" padding="sm" component="article" aria-label={tutorial.name} data-testid="tutorial-card">
            <Stack gap="xs" h="100%">
              <Anchor component={Link} to={`/tutorials/${tutorial.tutorial_id}`} underline="never" c="inherit" data-testid="tutorial-link">
                <Stack gap={6}>
                  <TutorialThumbnail src={tutorial.thumbnail} />
                  <Text fw={600} lineClamp={2}>
                    {tutorial.name}
                  </Text>
                </Stack>
              </Anchor>
              {tutorial.description && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {tutorial.description}
                </Text>
              )}
              {(tutorial.abilities.edit || tutorial.abilities.delete || tutorial.abilities.reorder) && (
                <Group gap={4} mt="auto" justify="flex-end">
                  {tutorial.abilities.reorder && (
                    <>
                      <TooltipIconButton
                        tooltip={t('list.moveUp')}
                        label={t('list.moveUpOf', { name: tutorial.name })}
                        disabled={firstOverall(index) || move.isPending}
                        onClick={() => move.mutate({ tutorial, direction: 'up' })}
                        data-move={`${tutorial.tutorial_id}-up`}
                        data-testid="move-up"
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </TooltipIconButton>
                      <TooltipIconButton
                        tooltip={t('list.moveDown')}
                        label={t('list.moveDownOf', { name: tutorial.name })}
                        disabled={lastOverall(index) || move.isPending}
                        onClick={() => move.mutate({ tutorial, direction: 'down' })}
                        data-move={`${tutorial.tutorial_id}-down`}
                        data-testid="move-down"
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </TooltipIconButton>
                    </>
                  )}
                  {tutorial.abilities.edit && (
                    <TooltipIconButton tooltip={t('list.edit')} label={t('list.editOf', { name: tutorial.name })} onClick={() => setEditing(tutorial)} data-testid="edit-tutorial">
                      <IconEdit size={16} aria-hidden />
                    </TooltipIconButton>
                  )}
                  {tutorial.abilities.delete && (
                    <TooltipIconButton tooltip={t('list.delete')} label={t('list.deleteOf', { name: tutorial.name })} color="red" onClick={() => setDeleting(tutorial)} data-testid="delete-tutorial">
                      <IconTrash size={16} aria-hidden />
                    </TooltipIconButton>
                  )}
                </Group>
              )}
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <ListPagination total={pages} value={page} onChange={setPage} data-testid="tutorials-pagination" />
      <VisuallyHidden aria-live="polite" data-testid="tutorials-announcement">
        {announcement}
      </VisuallyHidden>
      <TutorialFormModal tutorial={editing} language={language} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('delete.title')}
        warning={t('delete.warning', { name: deleting?.name ?? '' })}
        onConfirm={() => deleting && remove.mutate(deleting.tutorial_id)}
        confirmLabel={t('delete.confirm')}
        pending={remove.isPending}
        data-testid="delete-tutorial-modal"
      />
    </Stack>
  );
}
