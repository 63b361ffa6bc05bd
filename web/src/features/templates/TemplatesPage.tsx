// /templates, /templates/types, /templates/tags, /templates/types/{type}, /templates/tags/{tag} (spec part 2
// §2 "Templates"): the template browser with its tab and drill-down in the URL, and the New template button.
// Apply opens /templates/apply-template/{id}/new: the conversation is created on Generate.
import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';
import { TemplateBrowser, type BrowserView } from './TemplateBrowser';
import { ImportTemplatesButton } from './TemplateTransfer';

export const NEW_CONVERSATION = 'new';

export function viewPath(view: BrowserView): string {
  if (view.tag !== null) return `/templates/tags/${encodeURIComponent(view.tag)}`;
  if (view.type !== null) return `/templates/types/${encodeURIComponent(view.type)}`;
  return view.tab === 'all' ? '/templates' : `/templates/${view.tab}`;
}

/** The view the address names: /templates, /templates/{tags|types}, /templates/{tags|types}/{name}. */
export function viewOf(pathname: string): BrowserView {
  const segments = pathname.split('/').filter(Boolean);
  const at = segments.indexOf('templates');
  const [kind, raw] = at >= 0 ? segments.slice(at + 1) : [];
  if (kind !== 'tags' && kind !== 'types') return { tab: 'all', tag: null, type: null };
  if (raw === undefined) return { tab: kind, tag: null, type: null };
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the text as written.
  }
  return kind === 'tags' ? { tab: 'tags', tag: name, type: null } : { tab: 'types', tag: null, type: name };
}

export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const view = viewOf(pathname);
  return (
    <Stack gap="md" data-testid="templates-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <>
            <ImportTemplatesButton />
            <Button component={Link} to="/templates/create-template" leftSection={<IconPlus size={16} aria-hidden />} data-testid="new-template">
              {t('list.new')}
            </Button>
          </>
        }
      />
      <TemplateBrowser view={view} onViewChange={(next) => void navigate(viewPath(next))} applyTo={(template) => `/templates/apply-template/${template.template_id}/${NEW_CONVERSATION}`} />
    </Stack>
  );
}
