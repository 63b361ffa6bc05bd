// Text searched with ILIKE: % and _ in what the user typed match themselves (the backslash is ILIKE's
// escape character). The pattern is matched by PostgreSQL in linear time; no regex runs on our side.
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
