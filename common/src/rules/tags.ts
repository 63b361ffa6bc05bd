// Conversation tags (spec part 2 §5): one rule for the server's storage and the web's tag input.

/** Tags arrive comma-separated (the spec's storage) or as an array; stored trimmed, unique, non-empty. */
export function normalizeTags(input: string | string[] | null | undefined): string[] {
  const parts = Array.isArray(input) ? input.flatMap((t) => t.split(',')) : (input ?? '').split(',');
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of parts) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}
