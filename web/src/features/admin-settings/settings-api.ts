// The settings screen's calls (spec part 1 §7 GET /appconfig/admin, PUT /appconfig; Pluma's reveal and key
// test, and the outbox of mail not sent): admins only, never cached by the browser (the server says no-store).
import type { ConfigEntry, ConfigKeyTestRequest, ConfigKeyTestResult } from '@pluma/common/appconfig';
import type { FileResponse } from '@pluma/common/files';
import type { SmsOutboxItem } from '@pluma/common/phone-sign-in';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export interface AdminConfigEntry extends ConfigEntry {
  kind: 'text' | 'bool' | 'url' | 'json' | 'color' | 'secret' | 'longtext';
  public: boolean;
  masked: boolean;
}

export interface OutboxMail {
  mail_id: number;
  to: string;
  subject: string;
  text: string;
  kind: string;
  status: string;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
}

export const ADMIN_CONFIG_KEY = ['admin', 'appconfig'] as const;
export const OUTBOX_KEY = ['admin', 'outbox'] as const;

export function useAdminConfig() {
  return useQuery({ queryKey: ADMIN_CONFIG_KEY, queryFn: () => api.get<AdminConfigEntry[]>('/appconfig/admin'), staleTime: 0 });
}

export const saveConfig = (changes: ConfigEntry[]) => api.put<AdminConfigEntry[]>('/appconfig', changes);

/** The full value of one secret (audited on the server). */
export const revealConfigValue = (key: string) => api.post<ConfigEntry>('/appconfig/admin/reveal', { key });

export const testConfigKey = (request: ConfigKeyTestRequest) => api.post<ConfigKeyTestResult>('/appconfig/admin/test', request);

// issue 33 item 1: the SMS outbox (GET /api/admin/sms-outbox)
export const SMS_OUTBOX_KEY = ['admin', 'sms-outbox'] as const;
export function useSmsOutbox() {
  return useQuery({ queryKey: SMS_OUTBOX_KEY, queryFn: () => api.get<{ items: SmsOutboxItem[] }>('/admin/sms-outbox', { query: { limit: 100 } }) });
}

export function useOutbox(enabled: boolean) {
  return useQuery({ queryKey: OUTBOX_KEY, queryFn: () => api.get<{ items: OutboxMail[] }>('/admin/outbox', { query: { limit: 100 } }), enabled });
}

/** A logo or image, uploaded as a public file: its address (/api/files/{name}.{type}) is what the setting keeps. */
export async function uploadPublicImage(file: File): Promise<string> {
  const form = new FormData();
  // The field before the file: the server reads fields as they come.
  form.append('public', 'true');
  form.append('file', file);
  const uploaded = await api.post<FileResponse>('/files', form);
  return uploaded.src;
}
