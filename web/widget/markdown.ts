// The AI answers in markdown; a stranger's page must never receive HTML from the model. This turns the
// common subset (paragraphs, headings, lists, fenced code, GFM tables, **bold**, *italic*, `code`, http(s)
// links) into DOM nodes built one by one — text always through text nodes, never innerHTML. Anything else
// stays text.

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

// GFM tables (issue 30 item 5): a header row, a delimiter row (`---`, `:--`, `:-:`, `--:` per column), then
// body rows; `\|` is a literal pipe. Cells are rendered inline like any text.
const DELIMITER_CELL = /^:?-+:?$/;
/** More columns than this is not a table a chat bubble can show: it stays text. */
const TABLE_MAX_COLUMNS = 20;

function tableCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (row[i] === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

/** The columns' alignments when `line` is the delimiter row of a header of `columns` cells; else null. */
function delimiterRow(line: string | undefined, columns: number): ('left' | 'center' | 'right' | '')[] | null {
  if (line === undefined || !line.includes('-')) return null;
  const cells = tableCells(line);
  if (cells.length !== columns || !cells.every((cell) => DELIMITER_CELL.test(cell))) return null;
  return cells.map((cell) => (cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : ''));
}

function tableRow(cells: string[], tag: 'th' | 'td', aligns: string[], into: HTMLElement) {
  const row = into.appendChild(document.createElement('tr'));
  aligns.forEach((align, index) => {
    const cell = row.appendChild(document.createElement(tag));
    if (align) cell.style.textAlign = align;
    inline(cells[index] ?? '', cell);
  });
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
    if (line.includes('|')) {
      const header = tableCells(line);
      const aligns = header.length <= TABLE_MAX_COLUMNS ? delimiterRow(lines[i + 1], header.length) : null;
      if (aligns) {
        endBlocks();
        // In a box that scrolls sideways: a wide table must not widen the chat.
        const box = fragment.appendChild(document.createElement('div'));
        box.className = 'pw-md-table';
        const table = box.appendChild(document.createElement('table'));
        tableRow(header, 'th', aligns, table.appendChild(document.createElement('thead')));
        const body = table.appendChild(document.createElement('tbody'));
        for (i += 2; i < lines.length && lines[i].trim() !== '' && lines[i].includes('|'); i++) tableRow(tableCells(lines[i]), 'td', aligns, body);
        i--;
        continue;
      }
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
