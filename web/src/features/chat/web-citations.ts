// An answer written with web search cites its sources as [1], [2] (issue 32): each such number of a source
// the answer has becomes a link to that page (opened in a new tab, like the source card under the answer).
// Numbers inside code or an existing link stay text, and so does a number no source has.

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

export interface CitedSource {
  n: number;
  url: string;
  title: string;
}

const CITATION = /\[(\d{1,2})\]/g;
const LEAVE_ALONE = new Set(['a', 'code', 'pre']);

/** The text split into text and citation links (null when it cites nothing known). */
function splitCitations(text: string, byNumber: ReadonlyMap<number, CitedSource>): HastNode[] | null {
  const parts: HastNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    const source = byNumber.get(Number(match[1]));
    if (!source) continue;
    const at = match.index ?? 0;
    if (at > last) parts.push({ type: 'text', value: text.slice(last, at) });
    parts.push({
      type: 'element',
      tagName: 'a',
      properties: { href: source.url, title: source.title, className: ['web-citation'], dataCitation: source.n },
      children: [{ type: 'text', value: match[0] }],
    });
    last = at + match[0].length;
  }
  if (parts.length === 0) return null;
  if (last < text.length) parts.push({ type: 'text', value: text.slice(last) });
  return parts;
}

/** rehype plugin: [n] in the answer's text → a link to source n. */
export function rehypeWebCitations({ sources }: { sources: readonly CitedSource[] }) {
  // Only web addresses become links (the server keeps only those; this is the second guard).
  const byNumber = new Map(sources.filter((s) => /^https?:\/\//i.test(s.url)).map((s) => [s.n, s]));
  return (tree: HastNode) => {
    if (byNumber.size === 0) return;
    const walk = (node: HastNode) => {
      if (!node.children || (node.type === 'element' && LEAVE_ALONE.has(node.tagName ?? ''))) return;
      node.children = node.children.flatMap((child) => {
        if (child.type === 'text' && child.value) return splitCitations(child.value, byNumber) ?? [child];
        walk(child);
        return [child];
      });
    };
    walk(tree);
  };
}
