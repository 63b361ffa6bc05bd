// Renders the registered shell widgets of one slot; a widget that fails or is loading never blocks the page.
// In the sidebar, `onNavigate` (close the sidebar on phones) reaches the widgets' links through
// sidebar-navigation.
import { Suspense } from 'react';
import { RouteErrorBoundaryQuiet } from '../../ui/RouteErrorBoundary';
import { registry } from '../app-registry';
import type { ShellWidget } from '../../platform/registry';
import { SidebarNavigation } from '../../platform/shell/sidebar-navigation';

export function ShellWidgets({ slot, onNavigate = () => {} }: { slot: ShellWidget['slot']; onNavigate?: () => void }) {
  const widgets = registry.widgets.filter((widget) => widget.slot === slot);
  if (widgets.length === 0) return null;
  return (
    <SidebarNavigation value={onNavigate}>
      {widgets.map((widget) => (
        <RouteErrorBoundaryQuiet key={widget.id}>
          <Suspense fallback={null}>
            <widget.component />
          </Suspense>
        </RouteErrorBoundaryQuiet>
      ))}
    </SidebarNavigation>
  );
}
