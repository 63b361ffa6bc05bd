// Labels a screen gives to crumbs of its own path while it is shown: the avatar page names its crumb after
// the avatar instead of "#7". The bar builds crumbs from the path alone (breadcrumbs.ts), so the label of an
// id segment can only come from the screen that loaded the record.
import { useEffect, useSyncExternalStore } from 'react';

const labels = new Map<string, string>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version += 1;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** Shows `label` for the crumb linking to `path` (e.g. '/avatars/7') while the calling screen is mounted. */
export function useBreadcrumbLabel(path: string, label: string | null | undefined) {
  useEffect(() => {
    if (!label) return;
    labels.set(path, label);
    changed();
    return () => {
      if (labels.get(path) !== label) return;
      labels.delete(path);
      changed();
    };
  }, [path, label]);
}

/** Tests only (test/setup.ts): no labels and no subscribers, as on a new page. */
export function resetBreadcrumbLabelsForTests() {
  labels.clear();
  listeners.clear();
}

/** The label a screen gave to the crumb linking to `to`, if any (re-renders when labels change). */
export function useBreadcrumbLabelOf(): (to: string) => string | undefined {
  useSyncExternalStore(subscribe, () => version, () => version);
  return (to) => labels.get(to);
}
