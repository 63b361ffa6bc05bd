// An answer written with web search (issue 32) is exported with its sources: a numbered list after the
// text, each "title (url)" as the answer cites it by [n]. Built as markdown, so the PDF and Word renderers
// print it like any other list (markdown-blocks.ts prints a link as its text and URL).
import type { ExportMessageRequest } from '@pluma/common/messages-api';

type ExportSource = NonNullable<ExportMessageRequest['sources']>[number];

/** Markdown's own characters in a title are printed as they are, not read as markup. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_[\]<>#|~!]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').trim();
/** Parentheses and spaces would end the link's target early. */
const escapeUrl = (url: string) => url.replace(/[()\s]/g, (c) => encodeURIComponent(c));

export function withSources(markdown: string, sources: readonly ExportSource[] | undefined, heading = 'Sources'): string {
  if (!sources?.length) return markdown;
  const list = [...sources]
    .sort((a, b) => a.n - b.n)
    .map((s) => `${s.n}. [${escapeMarkdown(s.title) || escapeMarkdown(s.url)}](${escapeUrl(s.url)})`)
    .join('\n');
  return `${markdown}\n\n## ${escapeMarkdown(heading)}\n\n${list}\n`;
}
