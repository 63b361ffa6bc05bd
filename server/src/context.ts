// The services every feature receives. Built once at boot (boot.ts) or per test (test/test-app.ts).
// Each platform module implements one of the interfaces below and registers it in boot.ts.
import type { Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import type { Database, Db } from './db/client';
import type { Env } from './env';
import type { AiService, DemoModel } from './platform/ai/types';
import type { AuthCache } from './platform/auth/auth-cache';

export interface AppContext {
  env: Env;
  database: Database;
  db: Db;
  services: AppServices;
}

export interface AppServices {
  /** Present when REDIS_URL is set (rate limits, Socket.IO adapter). */
  redis?: Redis;
  /** Socket.IO; present once the HTTP server exists (platform/realtime). */
  realtime?: Realtime;
  /** pg-boss (platform/jobs). */
  jobs?: Jobs;
  /** SMTP or outbox (platform/mail). */
  mail?: Mailer;
  /** Twilio or the SMS outbox (platform/sms; issue 33 item 1). */
  sms?: SmsSender;
  /** Local disk or S3 (platform/storage). */
  storage?: Storage;
  /** AI providers (platform/ai). */
  ai?: AiService;
  /** The offline demo model (server/src/demo/ai.ts): also answers users' own keys when the demo is on (platform/ai/user-key-client.ts). */
  demoAi?: DemoModel;
  /** Resolved actors and current-user views, kept in step across nodes (platform/auth/auth-cache.ts). */
  authCache?: AuthCache;
}

export interface Realtime {
  /** Emits to room `user-{userId}` on every node (Redis adapter when REDIS_URL is set). */
  emitToUser(userId: number, event: string, payload: unknown): void;
  /** Disconnects every socket of the user on every node (user deleted or suspended). */
  disconnectUser(userId: number): void;
  /** Sends a message to the other nodes (Socket.IO serverSideEmit over the Redis adapter; none without Redis). */
  emitToNodes?(event: string, payload: unknown): void;
}

export interface JobProgress {
  (percent: number, note?: string): Promise<void>;
}

export interface Jobs {
  /** Queues a job; returns its id. */
  send(queue: string, data: Record<string, unknown>, options?: { singletonKey?: string; retryLimit?: number }): Promise<string | null>;
  /** Registers a handler; `progress` persists percent/note so a reload can show it. */
  work(queue: string, handler: (data: Record<string, unknown>, progress: JobProgress, jobId: string) => Promise<unknown>): Promise<void>;
  /** State and progress of a job, for polling screens. */
  status(queue: string, jobId: string): Promise<{ state: string; progress: number; note: string | null; output: unknown } | null>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** 'welcome' | 'reset_password' | ... (stored in the outbox). */
  kind: string;
  /** The action link in the text (e.g. password reset); logged when there is no SMTP so an operator can use it. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A text message (platform/sms; issue 33 item 1). */
export interface SmsMessage {
  /** E.164 number (platform/sms/sms-number.ts). */
  to: string;
  text: string;
  /** 'phone_sign_in' | ... (stored in the SMS outbox). */
  kind: string;
  /** The code in the text: printed on the console in development when no provider is configured. */
  code?: string;
}

export interface SmsSender {
  /** Sends through the provider (or only stores); returns the outbox row and its status. */
  send(message: SmsMessage): Promise<{ smsId: number; status: 'sent' | 'stored' | 'failed' }>;
}

export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
}
