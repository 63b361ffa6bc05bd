// App-wide alerts (spec part 1 §4: alerts auto-hide after 5 seconds, success messages after 3).
// Any code can raise one; <AlertHost/> shows them above the page.
import { ALERT_MS, SUCCESS_MS } from '@pluma/common/constants';
import { useSyncExternalStore } from 'react';

export interface AppAlert {
  id: number;
  kind: 'error' | 'success';
  message: string;
}

let alerts: AppAlert[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: AppAlert[]) {
  alerts = next;
  listeners.forEach((listener) => listener());
}

function push(kind: AppAlert['kind'], message: string, ms: number): number {
  // The same text twice in a row is shown once (e.g. two failed calls of one screen).
  const existing = alerts.find((alert) => alert.kind === kind && alert.message === message);
  if (existing) dismissAlert(existing.id);
  const id = nextId++;
  publish([...alerts, { id, kind, message }].slice(-3));
  timers.set(
    id,
    setTimeout(() => dismissAlert(id), ms),
  );
  return id;
}

export const showError = (message: string) => push('error', message, ALERT_MS);
export const showSuccess = (message: string) => push('success', message, SUCCESS_MS);

export function dismissAlert(id: number) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (alerts.some((alert) => alert.id === id)) publish(alerts.filter((alert) => alert.id !== id));
}

export function clearAlerts() {
  timers.forEach((timer) => clearTimeout(timer));
  timers.clear();
  publish([]);
}

const getAlerts = () => alerts;
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useAlerts(): AppAlert[] {
  return useSyncExternalStore(subscribe, getAlerts, getAlerts);
}
