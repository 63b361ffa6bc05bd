// The AI answers in markdown; a stranger's page must never receive HTML from the model. This turns the
// common subset (paragraphs, headings, lists, fenced code, **bold**, *italic*, `code`, http(s) links) into
// DOM nodes built one by one — text always through text nodes, never innerHTML. Anything else stays text.

// Underscores count only at word edges (snake_case stays as it is).
const INLINE =
  /\*\*(?=\S)(?<strong>.+?)(?<=\S)\*\*|(?<!\w)__(?=\S)(?<strong2>.+?)(?<=\S)__(?!\w)|`(?<code>[^`\n]+)`|\[(?<label>[^\]\n]+)\]\((?<href>https?:\/\/[^\s)]+)\)|\*(?=\S)(?<em>.+?)(?<=\S)\*|(?<!\w)_(?=\S)(?<em2>.+?)(?<=\S)_(?!\w)/g;

function inline(text: string, into: Node) {
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > at) into.appendChild(document.createTextNode(text.slice(at, index)));
    const whole = match[0];
    const { code, label, href } = match.groups ?? {};
    const strong = match.groups?.strong ?? match.groups?.strong2;
    const em = match.groups?.em ?? match.groups?.em2;
    if (strong !== undefined) inline(strong, into.appendChild(document.createElement('strong')));
    else if (code !== undefined) into.appendChild(document.createElement('code')).textContent = code;
    else if (label !== undefined && href !== undefined) {
      const link = into.appendChild(document.createElement('a'));
      link.href = href;
      link.target = '_blank';
      link.rel = 'noopener noreferrer nofollow';
      link.textContent = label;
    } else if (em !== undefined) inline(em, into.appendChild(document.createElement('em')));
    else into.appendChild(document.createTextNode(whole));
    at = index + whole.length;
  }
  if (at < text.length) into.appendChild(document.createTextNode(text.slice(at)));
}

export function renderMarkdown(source: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: HTMLParagraphElement | null = null;
  let list: HTMLUListElement | HTMLOListElement | null = null;
  const endBlocks = () => {
    paragraph = null;
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      endBlocks();
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i]);
      fragment.appendChild(document.createElement('pre')).appendChild(document.createElement('code')).textContent = code.join('\n');
      continue;
    }
    if (line.trim() === '') {
      endBlocks();
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      endBlocks();
      const block = fragment.appendChild(document.createElement('p'));
      block.className = 'pw-md-heading';
      inline(heading[1], block.appendChild(document.createElement('strong')));
      continue;
    }
    const item = /^\s*(?:([-*+])|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      const tag = item[1] ? 'ul' : 'ol';
      paragraph = null;
      if (!list || list.tagName.toLowerCase() !== tag) list = fragment.appendChild(document.createElement(tag));
      inline(item[2], list.appendChild(document.createElement('li')));
      continue;
    }
    if (list) {
      // A line under a list item continues it.
      const last = (list as HTMLElement).lastElementChild;
      if (last && /^\s+/.test(line)) {
        inline(` ${line.trim()}`, last);
        continue;
      }
      list = null;
    }
    if (paragraph) (paragraph as HTMLParagraphElement).appendChild(document.createElement('br'));
    else paragraph = fragment.appendChild(document.createElement('p'));
    inline(line, paragraph);
  }
  return fragment;
}
