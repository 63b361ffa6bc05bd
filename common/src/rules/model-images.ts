// Which chat models take images, apart from models.ts's schemas (which re-exports it): the conversation page
// needs it at once, zod not at all (issue 31 item 5).

/**
 * Whether a model takes images in a prompt (issue 27 item 2): OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series,
 * every Claude 3 and later, Grok's vision models and Grok 4, and the offline demo. Other models get the
 * image's name only, and the composer says so.
 */
export function modelAcceptsImages(model: { id: string; provider: string }): boolean {
  const id = model.id.toLowerCase();
  switch (model.provider) {
    case 'demo':
    case 'anthropic':
      return true;
    case 'openai':
      return /^(gpt-4o|gpt-4\.1|gpt-5|o\d|chatgpt-4o)/.test(id);
    case 'xai':
      return /vision|grok-4/.test(id);
    default:
      return false;
  }
}
