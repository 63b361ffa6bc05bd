// Renders the registered shell widgets of one slot; a widget that fails or is loading never blocks the page.
import { Suspense } from 'react';
import { RouteErrorBoundaryQuiet } from '../../ui/RouteErrorBoundary';
import { registry } from '../app-registry';
import type { ShellWidget } from '../registry';

export function ShellWidgets({ slot }: { slot: ShellWidget['slot'] }) {
  const widgets = registry.widgets.filter((widget) => widget.slot === slot);
  if (widgets.length === 0) return null;
  return (
    <>
      {widgets.map((widget) => (
        <RouteErrorBoundaryQuiet key={widget.id}>
          <Suspense fallback={null}>
            <widget.component />
          </Suspense>
        </RouteErrorBoundaryQuiet>
      ))}
    </>
  );
}
