// The name of a chat started by just typing (StartChatBox): the first prompt, trimmed, cut to about 60
// characters on a word boundary. It is a normal name: the user can change it later, and the conversation
// form still requires one (spec part 2 §5).
import { CONVERSATION_NAME_MAX } from '@pluma/common/constants';

export const NAME_FROM_PROMPT_MAX = 60;
/** A cut this much shorter than the maximum would lose too much: cut mid-word instead. */
const MIN_WORD_CUT = 20;

export function nameFromPrompt(prompt: string, max: number = Math.min(NAME_FROM_PROMPT_MAX, CONVERSATION_NAME_MAX)): string {
  const text = prompt.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  // Room for the ellipsis; cut at the last space that keeps enough of the text.
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  const cut = space >= MIN_WORD_CUT ? room.slice(0, space) : room;
  return `${cut.replace(/[\s.,;:!?¡¿\-–—]+$/u, '')}…`;
}
