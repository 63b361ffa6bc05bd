// A model's text as Pluma keeps it. PostgreSQL's text cannot hold U+0000 (the NUL character): an answer that
// carried one could never be saved, and since chat answers are saved together (streaming-saves.ts) it would
// fail the save of every answer streaming beside it. A model writes one only when asked to (a prompt can ask
// for "\u0000"), so it is dropped where the provider's text comes in, before it is shown or kept.
const NUL = '\u0000';

export function modelText(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, '') : text;
}
