import { Anchor, Breadcrumbs, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useMemo } from 'react';
import { useBreadcrumbLabelOf } from '../../platform/shell/breadcrumb-labels';
import { useCurrentUser } from '../../platform/session/session-context';
import { registry } from '../app-registry';
import { buildBreadcrumbs, pageFinder } from './breadcrumbs';

export function BreadcrumbBar() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const screenLabel = useBreadcrumbLabelOf();
  const staffRole = useCurrentUser().staff?.role ?? null;
  const pageOf = useMemo(() => pageFinder(registry.routes, registry.crumbLinks, staffRole), [staffRole]);
  const model = buildBreadcrumbs(pathname, (segment) => i18n.exists(`breadcrumbs.${segment}`), pageOf);
  if (model.crumbs.length === 0) return null;
  const label = (crumb: (typeof model.crumbs)[number]) => (crumb.labelKey ? t(crumb.labelKey) : (screenLabel(crumb.path) ?? crumb.text));
  const last = model.crumbs.length - 1;
  return (
    <Group component="nav" aria-label={t('breadcrumbs.label')} gap="md" mb="md" wrap="nowrap" data-testid="breadcrumbs">
      {model.back && (
        <Anchor component={Link} to={model.back} size="sm" fw={500} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flexShrink: 0 }}>
          <IconArrowLeft size={16} aria-hidden />
          {t('breadcrumbs.back')}
        </Anchor>
      )}
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap', minWidth: 0 }}>
        {model.crumbs.map((crumb, index) =>
          index === last || crumb.to === null ? (
            <Text key={crumb.path} size="sm" c="var(--pluma-muted)" aria-current={index === last ? 'page' : undefined} truncate>
              {label(crumb)}
            </Text>
          ) : (
            <Anchor key={crumb.path} component={Link} to={crumb.to} size="sm">
              {label(crumb)}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </Group>
  );
}
