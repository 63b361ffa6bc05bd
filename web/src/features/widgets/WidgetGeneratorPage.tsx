// /chat-widget-generator (spec part 2 §2 "Chat widget generator"; issue 15 item 3) and
// /chat-widget-generator/{widgetId} (the same page with that widget loaded into the form). Personal only
// (§2: the Chat Widget tab is not in organization scope; the API answers 404 there), so inside an
// organization the page says so and calls nothing.
import { Alert, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';
import { showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import type { Widget } from '@pluma/common/widgets';
import { WidgetForm } from './WidgetForm';
import { GENERATOR_PATH, useReplaceWidget, WidgetList } from './WidgetList';
import { WidgetSnippet } from './WidgetSnippet';
import { useWidgets } from './widgets-api';

export default function WidgetGeneratorPage() {
  const { t } = useTranslation('widgets');
  const organization = useActiveOrganization();
  if (organization) return <NotInOrganization />;
  return (
    <Stack gap="lg" data-testid="widget-generator-page">
      <PageHeader title={t('title')} description={t('description')} />
      <Generator />
    </Stack>
  );
}

export function NotInOrganization() {
  const { t } = useTranslation('widgets');
  return (
    <Stack gap="md" data-testid="widget-generator-page">
      <PageHeader title={t('title')} />
      <Alert color="yellow" data-testid="widgets-not-in-organization">
        {t('notInOrganization')}
      </Alert>
    </Stack>
  );
}

function Generator() {
  const { t } = useTranslation('widgets');
  const navigate = useNavigate();
  const params = useParams();
  const editingId = params.widgetId ? Number(params.widgetId) : null;
  const widgets = useWidgets();
  const editing = editingId === null ? null : (widgets.data?.widgets.find((w) => w.widget_id === editingId) ?? null);
  useBreadcrumbLabel(`${GENERATOR_PATH}/${params.widgetId ?? ''}`, editing?.name);
  const missing = editingId !== null && (widgets.isSuccess || widgets.isError) && !editing;
  const waiting = editingId !== null && widgets.isPending;

  return (
    <>
      {missing && (
        <Alert color="red" role="alert" data-testid="widget-not-found">
          {t('errors.notFound')}
        </Alert>
      )}
      {!waiting && !missing && (
        // A fresh form (and no code shown) for each widget edited and for a new one.
        <GeneratorPanel key={editing?.widget_id ?? 'new'} widget={editing} onCancelEdit={() => navigate(GENERATOR_PATH)} />
      )}
      <WidgetList onDeleted={(widgetId) => widgetId === editingId && navigate(GENERATOR_PATH)} />
    </>
  );
}

function GeneratorPanel({ widget, onCancelEdit }: { widget: Widget | null; onCancelEdit: () => void }) {
  const { t } = useTranslation('widgets');
  const replace = useReplaceWidget();
  // The widget whose code is shown; null hides it (spec: "The snippet hides again when any input changes").
  const [shown, setShown] = useState<Widget | null>(null);
  const onSaved = (saved: Widget) => {
    replace(saved);
    showSuccess(t(widget ? 'saved' : 'generated', { name: saved.name }));
    setShown(saved);
  };
  return (
    <Stack gap="md">
      <WidgetForm widget={widget} onSaved={onSaved} onInput={() => setShown(null)} onCancelEdit={onCancelEdit} />
      {shown && <WidgetSnippet widget={shown} />}
    </Stack>
  );
}
