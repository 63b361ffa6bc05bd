// "Your widgets" (issue 15 item 3): each widget's name, avatar, accent, allowed websites, on/off switch
// (PUT enabled), usage, and Edit, Show code, Rotate key (confirmed: the old snippet stops working),
// Delete (confirmed) and Conversations. Loading, empty and error states.
import { Badge, Button, Card, ColorSwatch, Group, List, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCode, IconKey, IconMessages, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import type { Widget } from '@pluma/common/widgets';
import { WidgetSnippet } from './WidgetSnippet';
import { deleteWidget, rotateWidgetKey, setWidgetEnabled, useWidgets, WIDGETS_KEY } from './widgets-api';
import { formatNumber } from '../../i18n/format';

export const GENERATOR_PATH = '/chat-widget-generator';

/** Puts a changed widget into the cached list. */
export function useReplaceWidget() {
  const queryClient = useQueryClient();
  return (widget: Widget) =>
    queryClient.setQueryData<{ widgets: Widget[] }>([...WIDGETS_KEY, 'list'], (old) => {
      if (!old) return { widgets: [widget] };
      const known = old.widgets.some((w) => w.widget_id === widget.widget_id);
      return { widgets: known ? old.widgets.map((w) => (w.widget_id === widget.widget_id ? widget : w)) : [widget, ...old.widgets] };
    });
}

export function WidgetList({ onDeleted }: { onDeleted: (widgetId: number) => void }) {
  const { t, i18n } = useTranslation('widgets');
  const widgets = useWidgets();
  const queryClient = useQueryClient();
  const replace = useReplaceWidget();
  const handleError = useErrorHandler();
  const [code, setCode] = useState<Widget | null>(null);
  const [rotating, setRotating] = useState<Widget | null>(null);
  // The rotated widget: its dialog then shows the new code in place of the warning (focus stays in it).
  const [rotated, setRotated] = useState<Widget | null>(null);
  const closeRotate = () => {
    setRotating(null);
    setRotated(null);
  };
  const [deleting, setDeleting] = useState<Widget | null>(null);

  const toggle = useMutation({
    mutationFn: ({ widget, enabled }: { widget: Widget; enabled: boolean }) => setWidgetEnabled(widget.widget_id, enabled),
    onSuccess: (widget) => {
      replace(widget);
      showSuccess(t(widget.enabled ? 'list.turnedOn' : 'list.turnedOff', { name: widget.name }));
    },
    onError: (error) => handleError(error, { showValidation: true }),
  });
  const rotate = useMutation({
    mutationFn: (widget: Widget) => rotateWidgetKey(widget.widget_id),
    onSuccess: (widget) => {
      replace(widget);
      showSuccess(t('rotate.done', { name: widget.name }));
      // The new code at once: the old one no longer works anywhere.
      setRotated(widget);
    },
    onError: (error) => handleError(error),
  });
  const remove = useMutation({
    mutationFn: (widget: Widget) => deleteWidget(widget.widget_id),
    onSuccess: (_, widget) => {
      queryClient.setQueryData<{ widgets: Widget[] }>([...WIDGETS_KEY, 'list'], (old) => old && { widgets: old.widgets.filter((w) => w.widget_id !== widget.widget_id) });
      setDeleting(null);
      showSuccess(t('delete.done', { name: widget.name }));
      onDeleted(widget.widget_id);
    },
    onError: (error) => handleError(error),
  });

  const list = widgets.data?.widgets ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="widgets-list-title" data-testid="widgets-list">
      <Title order={2} size="h4" id="widgets-list-title">
        {t('list.title')}
      </Title>
      {widgets.isPending && <Skeleton height={96} data-testid="widgets-loading" />}
      {widgets.isError && <LoadErrorAlert text={t('errors.listFailed')} onRetry={() => void widgets.refetch()} retryLabel={t('errors.retry')} data-testid="widgets-error" />}
      {widgets.isSuccess && list.length === 0 && (
        <Text c="dimmed" data-testid="widgets-empty">
          {t('list.empty')}
        </Text>
      )}
      {list.map((widget) => (
        <Card key={widget.widget_id} withBorder padding="md" component="article" aria-label={widget.name} data-testid="widget-card">
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap" gap="sm">
              {/* Wrapping: on a phone the badges go under the name instead of being cut off. */}
              <Group gap="sm" wrap="wrap">
                <ColorSwatch color={widget.accent_color} size={20} aria-label={t('list.accent', { color: widget.accent_color })} role="img" />
                <Title order={3} size="h5">
                  {widget.name}
                </Title>
                <Badge variant="light">{t('list.avatar', { name: widget.avatar_name })}</Badge>
                {widget.allowed_origins.length === 0 && (
                  <Badge variant="light" color="orange" data-testid="widget-nowhere-badge">
                    {t('list.nowhere')}
                  </Badge>
                )}
              </Group>
              <Switch
                label={t('list.enabled')}
                aria-label={t('list.enabledLabel', { name: widget.name })}
                checked={widget.enabled}
                disabled={!widget.abilities.update || toggle.isPending}
                onChange={(event) => toggle.mutate({ widget, enabled: event.currentTarget.checked })}
                data-testid="widget-enabled"
              />
            </Group>
            <Text size="sm" fw={500}>
              {t('list.origins')}
            </Text>
            {widget.allowed_origins.length > 0 ? (
              <List size="sm" data-testid="widget-origins-list">
                {widget.allowed_origins.map((origin) => (
                  <List.Item key={origin}>{origin}</List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="orange.8" data-testid="widget-no-origins">
                {t('list.noOrigins')}
              </Text>
            )}
            <Text size="sm" c="var(--pluma-muted)" data-testid="widget-usage">
              {t('list.usage', { words: formatNumber(widget.words_used, i18n.language), count: widget.sessions_count })}
            </Text>
            <Group gap="xs" wrap="wrap">
              {widget.abilities.update && (
                <Button component={Link} to={`${GENERATOR_PATH}/${widget.widget_id}`} size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} aria-label={t('list.editLabel', { name: widget.name })} data-testid="widget-edit">
                  {t('list.edit')}
                </Button>
              )}
              <Button size="xs" variant="default" leftSection={<IconCode size={14} aria-hidden />} onClick={() => setCode(widget)} aria-label={t('list.showCodeLabel', { name: widget.name })} data-testid="widget-show-code">
                {t('list.showCode')}
              </Button>
              {widget.abilities.update && (
                <Button size="xs" variant="default" leftSection={<IconKey size={14} aria-hidden />} onClick={() => setRotating(widget)} aria-label={t('list.rotateLabel', { name: widget.name })} data-testid="widget-rotate">
                  {t('list.rotate')}
                </Button>
              )}
              <Button
                component={Link}
                to={`${GENERATOR_PATH}/${widget.widget_id}/conversations`}
                size="xs"
                variant="default"
                leftSection={<IconMessages size={14} aria-hidden />}
                aria-label={t('list.conversationsLabel', { name: widget.name })}
                data-testid="widget-conversations"
              >
                {t('list.conversations')}
              </Button>
              {widget.abilities.delete && (
                <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setDeleting(widget)} aria-label={t('list.deleteLabel', { name: widget.name })} data-testid="widget-delete">
                  {t('list.delete')}
                </Button>
              )}
            </Group>
          </Stack>
        </Card>
      ))}
      <Modal opened={code !== null} onClose={() => setCode(null)} title={code ? t('snippet.label', { name: code.name }) : undefined} size="lg" data-testid="widget-code-modal">
        {code && <WidgetSnippet widget={code} withTitle={false} />}
      </Modal>
      <Modal
        opened={rotating !== null}
        onClose={closeRotate}
        title={rotated ? t('snippet.label', { name: rotated.name }) : rotating ? t('rotate.title', { name: rotating.name }) : undefined}
        size={rotated ? 'lg' : 'md'}
        {...(rotated ? {} : { onConfirm: () => rotating && rotate.mutate(rotating), confirmLabel: t('rotate.confirm'), confirmColor: 'red', confirmLoading: rotate.isPending })}
        data-testid="widget-rotate-modal"
      >
        {rotated ? <WidgetSnippet widget={rotated} withTitle={false} focus /> : <Text size="sm">{t('rotate.warning')}</Text>}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={deleting ? t('delete.title', { name: deleting.name }) : ''}
        warning={t('delete.warning')}
        confirmLabel={t('delete.confirm')}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        data-testid="widget-delete-modal"
      />
    </Stack>
  );
}

