// spec part 2 §2: "Messages containing a personality block (delimited by Spanish begin and end phrases)
// enable a Convert to Avatar button that extracts the block as avatar context." The spec does not quote the
// phrases; ours are 'INICIO DE PERSONALIDAD' and 'FIN DE PERSONALIDAD' (any case, with or without 'LA'), as
// a prompt that writes a personality asks the model to mark it. Markdown around the phrases (**, ###, ---,
// a colon) is not part of the block.
export const PERSONALITY_BEGIN = 'INICIO DE PERSONALIDAD';
export const PERSONALITY_END = 'FIN DE PERSONALIDAD';

const BEGIN = /inicio\s+de\s+(?:la\s+)?personalidad/i;
const END = /fin\s+de\s+(?:la\s+)?personalidad/i;

/** The block's text between the phrases, or null when the message has none (or it is empty). */
export function personalityBlock(text: string): string | null {
  const begin = BEGIN.exec(text);
  if (!begin) return null;
  const rest = text.slice(begin.index + begin[0].length);
  const end = END.exec(rest);
  if (!end) return null;
  const block = rest
    .slice(0, end.index)
    .replace(/^[\s*#:_\-=>\]]+/, '')
    .replace(/[\s*#_\-=[<]+$/, '')
    .trim();
  return block || null;
}
