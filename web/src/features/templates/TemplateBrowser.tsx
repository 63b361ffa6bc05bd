// The template browser (spec part 2 §2 "Templates", §4 "Templates", §9): tabs All / Type / Tags, search,
// sort (Last Created, Last Used, A-Z, Z-A; the default from the templates_default_sort setting), the
// favourites filter, the admin-templates toggle (staff admins), tag and type drill-down with Back, 24 per
// page, the info modal on [field] placeholders. The templates page drives it from the URL; the apply
// screen's "Browse Templates" drives it from its own state and picks a template instead of opening one.
import { ActionIcon, Button, Card, Group, NativeSelect, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Text, TextInput, Title, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { templateSortFromSetting, TEMPLATES_PAGE_SIZE, TEMPLATE_SORT_KEYS, TEMPLATE_TAG_NAME_MAX, type Template, type TemplateLanguage, type TemplateSortKey } from '@pluma/common/templates';
import { IconArrowLeft, IconCategory, IconInfoCircle, IconPlus, IconTag, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../platform/config/app-config';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { CardGrid } from '../../ui/CardGrid';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useListControls } from '../../ui/use-list-controls';
import { FieldsInfoModal } from './FieldsInfoModal';
import { TemplateCard, TEMPLATE_CARD_HEIGHT } from './TemplateCard';
import { useMessageText } from './field-text';
import { ExportTemplatesButton } from './TemplateTransfer';
import {
  addTemplateTag,
  addTemplateType,
  deleteTemplate,
  deleteTemplateTag,
  deleteTemplateType,
  TEMPLATES_KEY,
  toggleFavorite,
  useTemplates,
  useTemplateTags,
  useTemplateTypes,
} from './templates-api';

export type BrowserTab = 'all' | 'types' | 'tags';
/** Which listing shows: a tab, or the templates of one tag or type (its drill-down). */
export interface BrowserView {
  tab: BrowserTab;
  tag: string | null;
  type: string | null;
}

export const ALL_VIEW: BrowserView = { tab: 'all', tag: null, type: null };

interface TemplateBrowserProps {
  view: BrowserView;
  onViewChange: (view: BrowserView) => void;
  /** The templates page: Apply opens the apply screen, and cards offer Edit and Delete by abilities. */
  applyTo?: (template: Template) => string;
  /** The apply screen's browser: Apply loads the template there. */
  onPick?: (template: Template) => void;
}

export function TemplateBrowser({ view, onViewChange, applyTo, onPick }: TemplateBrowserProps) {
  const { t } = useTranslation('templates');
  const config = useAppConfig();
  const isAdmin = useSession().user?.staff?.role === 'admin';
  const [sortBy, setSortBy] = useState<TemplateSortKey>(() => templateSortFromSetting(config.get('templates_default_sort')));
  const [favorites, setFavorites] = useState(false);
  /** '' = both languages (spec part 2 §7: the list's language filter). */
  const [language, setLanguage] = useState<TemplateLanguage | ''>('');
  const [admin, setAdmin] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);
  // spec part 2 §4: switching tab (or any filter) starts again at page 1.
  const controls = useListControls(TEMPLATES_PAGE_SIZE, { view, sortBy, favorites, admin, language });
  const drilled = view.tag !== null || view.type !== null;
  const listing = drilled || view.tab === 'all';

  return (
    <Stack gap="md" data-testid="template-browser">
      <Group gap="md" align="flex-end" wrap="wrap">
        {drilled ? (
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={() => onViewChange({ tab: view.tag !== null ? 'tags' : 'types', tag: null, type: null })} data-testid="templates-back">
              {t('browser.back')}
            </Button>
            <Title order={2} size="h4" data-testid="templates-drilldown">
              {view.tag !== null ? t('browser.tagTitle', { name: view.tag }) : t('browser.typeTitle', { name: view.type })}
            </Title>
          </Group>
        ) : (
          <SegmentedControl
            value={view.tab}
            onChange={(value) => onViewChange({ tab: value as BrowserTab, tag: null, type: null })}
            data={[
              { value: 'all', label: t('browser.all') },
              { value: 'types', label: t('browser.types') },
              { value: 'tags', label: t('browser.tags') },
            ]}
            aria-label={t('browser.tabsLabel')}
            data-testid="templates-tabs"
          />
        )}
        <SearchInput label={t('browser.search')} value={controls.search} onChange={controls.setSearch} style={{ flex: '1 1 220px' }} maw={380} data-testid="templates-search" />
        {listing && (
          <NativeSelect
            label={t('browser.sort')}
            value={sortBy}
            onChange={(event) => setSortBy(event.currentTarget.value as TemplateSortKey)}
            data={TEMPLATE_SORT_KEYS.map((key) => ({ value: key, label: t(`sort.${key}`) }))}
            data-testid="templates-sort"
          />
        )}
        {listing && (
          <NativeSelect
            label={t('browser.language')}
            value={language}
            onChange={(event) => setLanguage(event.currentTarget.value as TemplateLanguage | '')}
            data={[
              { value: '', label: t('browser.anyLanguage') },
              { value: 'en', label: t('editor.english') },
              { value: 'es', label: t('editor.spanish') },
            ]}
            data-testid="templates-language"
          />
        )}
        <Tooltip label={t('info.open')} withArrow>
          <ActionIcon variant="default" size="lg" mb={2} aria-label={t('info.open')} onClick={() => setInfoOpen(true)} data-testid="templates-info">
            <IconInfoCircle size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      {listing && (
        <Group gap="lg">
          <Switch label={t('browser.favorites')} checked={favorites} onChange={(event) => setFavorites(event.currentTarget.checked)} data-testid="templates-favorites" />
          {isAdmin && <Switch label={t('browser.admin')} checked={admin} onChange={(event) => setAdmin(event.currentTarget.checked)} data-testid="templates-admin" />}
        </Group>
      )}
      {listing ? (
        <TemplateListing
          filters={{ query: controls.query, page: controls.page, sortBy, tag: view.tag, type: view.type, favorites, admin, language: language || null }}
          pageCount={controls.pageCount}
          onPage={controls.setPage}
          applyTo={applyTo}
          onPick={onPick}
        />
      ) : (
        <NameListing
          kind={view.tab === 'tags' ? 'tags' : 'types'}
          query={controls.query}
          manage={applyTo !== undefined && isAdmin}
          onChoose={(name) => onViewChange(view.tab === 'tags' ? { tab: 'tags', tag: name, type: null } : { tab: 'types', tag: null, type: name })} />
      )}
      <FieldsInfoModal opened={infoOpen} onClose={() => setInfoOpen(false)} />
    </Stack>
  );
}

function TemplateListing({
  filters,
  pageCount,
  onPage,
  applyTo,
  onPick,
}: {
  filters: Parameters<typeof useTemplates>[0];
  pageCount: (total: number | undefined) => number;
  onPage: (page: number) => void;
  applyTo?: (template: Template) => string;
  onPick?: (template: Template) => void;
}) {
  const { t } = useTranslation('templates');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const list = useTemplates(filters);
  const templates = list.data?.templates ?? [];
  const [deleting, setDeleting] = useState<Template | null>(null);
  const star = useMutation({
    mutationFn: (template: Template) => toggleFavorite(template.template_id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY }),
    onError: (error) => handleError(error),
  });
  const remove = useMutation({
    mutationFn: (template: Template) => deleteTemplate(template.template_id),
    onSuccess: () => {
      showSuccess(t('editor.deleted'));
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
    onError: (error) => handleError(error),
  });
  const manage = applyTo !== undefined;
  // A page left empty (its last template deleted, or fewer results now) steps back to the one before.
  const emptyPage = list.isSuccess && !list.isPlaceholderData && templates.length === 0 && filters.page > 1;
  useEffect(() => {
    if (emptyPage) onPage(filters.page - 1);
  }, [emptyPage, filters.page, onPage]);

  return (
    <Stack gap="md">
      {manage && templates.length > 0 && (
        <Group justify="flex-end">
          <ExportTemplatesButton templates={templates} />
        </Group>
      )}
      {list.isError && (
        <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('browser.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="templates-error" />
      )}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && templates.length === 0}
        emptyText={t('browser.empty')}
        cardHeight={TEMPLATE_CARD_HEIGHT}
        testIds={{ loading: 'templates-loading', empty: 'templates-empty' }}
      >
        {templates.map((template) => (
          <TemplateCard
            key={template.template_id}
            template={template}
            apply={applyTo ? { to: applyTo(template) } : { onPick: () => onPick?.(template) }}
            onToggleFavorite={() => star.mutate(template)}
            favoritePending={star.isPending && star.variables?.template_id === template.template_id}
            manage={manage}
            onDelete={() => setDeleting(template)}
          />
        ))}
      </CardGrid>
      <Group justify="center">
        <ListPagination total={pageCount(list.data?.total)} value={filters.page} onChange={onPage} aria-label={t('browser.pages')} data-testid="templates-pagination" />
      </Group>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('editor.deleteTitle')}
        warning={t('editor.deleteWarning', { name: deleting?.name ?? '' })}
        confirmLabel={t('editor.delete')}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        data-testid="delete-template-modal"
      />
    </Stack>
  );
}

/**
 * The Type or Tags tab: the admin-managed names with how many templates each has; one opens its templates.
 * On the templates page staff admins add and delete names (spec part 2 §6 "tags and types managed by admins").
 */
function NameListing({ kind, query, manage, onChoose }: { kind: 'tags' | 'types'; query: string; manage: boolean; onChoose: (name: string) => void }) {
  const { t } = useTranslation('templates');
  const tags = useTemplateTags(kind === 'tags');
  const types = useTemplateTypes(kind === 'types');
  const source = kind === 'tags' ? tags : types;
  const all: { id: number; name: string; count: number }[] =
    kind === 'tags' ? (tags.data?.tags ?? []).map((tag) => ({ id: tag.tag_id, ...tag })) : (types.data?.types ?? []).map((type) => ({ id: type.type_id, ...type }));
  const needle = query.toLocaleLowerCase();
  const names = all.filter((item) => item.name.toLocaleLowerCase().includes(needle));
  const Icon = kind === 'tags' ? IconTag : IconCategory;
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const remove = useMutation({
    mutationFn: (id: number) => (kind === 'tags' ? deleteTemplateTag(id) : deleteTemplateType(id)),
    onSuccess: () => {
      showSuccess(t('manage.deleted'));
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
    onError: (error) => handleError(error),
  });

  let body;
  if (source.isError)
    body = <LoadErrorAlert text={screenText({ failure: source.error }, t) ?? t('browser.loadError')} onRetry={() => void source.refetch()} retryLabel={t('retry')} data-testid="templates-error" />;
  else if (source.isPending)
    body = (
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} data-testid="templates-loading">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} height={56} radius="md" />
        ))}
      </SimpleGrid>
    );
  else if (names.length === 0)
    body = (
      <Text c="dimmed" py="lg" data-testid="templates-empty">
        {kind === 'tags' ? t('browser.noTags') : t('browser.noTypes')}
      </Text>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4 }} spacing="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {names.map((item) => (
          <li key={item.id}>
            <Card withBorder radius="md" padding="sm">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <UnstyledButton onClick={() => onChoose(item.name)} style={{ flex: 1, minWidth: 0 }} data-testid={kind === 'tags' ? 'tag-link' : 'type-link'}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                      <Icon size={16} aria-hidden style={{ flexShrink: 0 }} />
                      <Text fw={600} truncate>
                        {item.name}
                      </Text>
                    </Group>
                    <Text size="sm" c="dimmed">
                      <span aria-hidden>{item.count}</span>
                      <VisuallyHidden>{t('browser.count', { count: item.count })}</VisuallyHidden>
                    </Text>
                  </Group>
                </UnstyledButton>
                {manage && (
                  <ActionIcon variant="subtle" color="red" aria-label={t('manage.deleteNamed', { name: item.name })} onClick={() => setRemoving(item)} data-testid="delete-name">
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            </Card>
          </li>
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="md">
      {manage && <AddName kind={kind} />}
      {body}
      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={kind === 'tags' ? t('manage.deleteTagTitle') : t('manage.deleteTypeTitle')}
        warning={t(kind === 'tags' ? 'manage.deleteTagWarning' : 'manage.deleteTypeWarning', { name: removing?.name ?? '' })}
        confirmLabel={t('editor.delete')}
        onConfirm={() => removing && remove.mutate(removing.id)}
        pending={remove.isPending}
        data-testid="delete-name-modal"
      />
    </Stack>
  );
}

/** A staff admin's new tag or type ('The input can't be empty'; an existing name is refused by the server). */
function AddName({ kind }: { kind: 'tags' | 'types' }) {
  const { t } = useTranslation('templates');
  const messageText = useMessageText();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async (value: string): Promise<void> => {
      await (kind === 'tags' ? addTemplateTag(value) : addTemplateType(value));
    },
    onSuccess: () => {
      showSuccess(t('manage.added'));
      setName('');
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
    },
    onError: (failure) => handleError(failure, { showValidation: true }),
  });
  const label = kind === 'tags' ? t('manage.newTag') : t('manage.newType');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setError(messageText('template_input_empty'));
        add.mutate(name.trim());
      }}
    >
      <Group gap="sm" align="flex-start">
        <TextInput
          label={label}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={TEMPLATE_TAG_NAME_MAX}
          data-testid="new-name"
        />
        <Button type="submit" mt={24} loading={add.isPending} leftSection={<IconPlus size={16} aria-hidden />} data-testid="add-name">
          {t('manage.add')}
        </Button>
      </Group>
    </form>
  );
}
