// The mailer is created before the HTTP app (and its pino logger) exists, so it logs through this
// small sink: JSON lines in pino's shape, honouring LOG_LEVEL.
import type { Env } from '../../env';

export interface MailLog {
  info(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

export function consoleMailLog(level: Env['LOG_LEVEL'], write: (line: string) => void = (line) => process.stdout.write(line + '\n')): MailLog {
  const threshold = LEVELS[level];
  const emit = (value: number, fields: Record<string, unknown>, msg: string) => {
    if (value < threshold) return;
    write(JSON.stringify({ level: value, time: Date.now(), pid: process.pid, component: 'mail', ...fields, msg }));
  };
  return {
    info: (fields, msg) => emit(LEVELS.info, fields, msg),
    error: (fields, msg) => emit(LEVELS.error, fields, msg),
  };
}
