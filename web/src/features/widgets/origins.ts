// The allowed websites box (contract B: allowed_origins, 0..20 origins of the form scheme://host[:port]).
// Deny by default: the widget answers only on the listed websites, so an empty list answers nowhere. The
// browser checks each line with the server's own rule (common/src/widgets.ts toWidgetOrigin) before sending;
// the server checks again and its message is shown too.
import { toWidgetOrigin, WIDGET_ORIGINS_MAX } from '@pluma/common/widgets';

export type OriginProblem = { kind: 'invalid'; line: number; value: string } | { kind: 'tooMany'; max: number };

export interface ParsedOrigins {
  origins: string[];
  problem: OriginProblem | null;
}

export const toOrigin = toWidgetOrigin;

/** The box's lines as origins (blank lines skipped, repeats once), or the first problem. */
export function parseOrigins(text: string): ParsedOrigins {
  const origins: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const origin = toOrigin(line);
    if (!origin) return { origins, problem: { kind: 'invalid', line: index + 1, value: line.trim() } };
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length > WIDGET_ORIGINS_MAX) return { origins, problem: { kind: 'tooMany', max: WIDGET_ORIGINS_MAX } };
  return { origins, problem: null };
}
