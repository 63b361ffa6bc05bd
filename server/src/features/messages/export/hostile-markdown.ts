// Markdown crafted to be slow for naive parsers, used by the export tests and bench/export-hostile.mjs.
// Each part targets a known super-linear case: the old hand-written regexes (unclosed "[" links, a heading
// padded with spaces, table dividers) and CommonMark's pathological inputs (runs of unmatched emphasis
// delimiters, backtick runs of growing length, deep quote and list nesting).

/** The named parts, each about `size` characters. */
export function hostileParts(size: number): Record<string, string> {
  const fill = (unit: string) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));
  return {
    unclosedLinks: fill('['),
    imageOpeners: fill('![a'),
    emphasisRuns: fill('*a _b '),
    strongRuns: fill('**a __b '),
    backtickRuns: Array.from({ length: Math.floor(Math.sqrt(size)) }, (_, i) => '`'.repeat(i + 1)).join(' ').slice(0, size),
    paddedHeading: `# ${' '.repeat(size - 4)}x`,
    tableDividers: `| a | b |\n${fill('|--')}x`,
    nestedQuotes: `${'> '.repeat(Math.floor(size / 2) - 2)}deep`,
    nestedLists: Array.from({ length: Math.floor(Math.sqrt(size / 2)) }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'),
    strikeRuns: fill('~~a ~'),
  };
}

/** All parts joined as one message of at most `total` characters (the export limit by default). */
export function hostileMarkdown(total = 500_000): string {
  const parts = Object.values(hostileParts(Math.floor(total / 10) - 4));
  return parts.join('\n\n').slice(0, total);
}

/** The old hand-written parser's worst case: one paragraph of unclosed "[" (its link pattern rescanned the rest at each). */
export function unclosedBrackets(total = 500_000): string {
  return '['.repeat(total);
}
