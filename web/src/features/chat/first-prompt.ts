// Starting a chat by just typing (conversations list, home): the new conversation's screen sends the
// prompt typed there, once. Kept in memory, not in the URL or history state, so a reload or Back never
// sends it twice.
const queued = new Map<number, string>();

export function queueFirstPrompt(conversationId: number, prompt: string): void {
  queued.set(conversationId, prompt);
}

/** Tests only (test/setup.ts): no prompt waiting (ids repeat from one test to the next). */
export function resetFirstPromptsForTests(): void {
  queued.clear();
}

/** The prompt to send on opening this conversation, handed out once. */
export function takeFirstPrompt(conversationId: number): string | null {
  const prompt = queued.get(conversationId) ?? null;
  queued.delete(conversationId);
  return prompt;
}
