// spec part 2 §5: token estimate is the length divided by 4, rounded.
export function estimateTokens(text: string): number {
  return Math.round(text.length / 4);
}

/** Words of a generated answer (what a message costs). */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}
