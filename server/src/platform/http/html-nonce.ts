// Adds a CSP nonce to every <script> (and <link>) start tag of an HTML fragment, following the HTML
// tokenizer's states closely enough that text which only looks like a tag — inside a comment, a quoted
// attribute, a script's body or a raw-text element such as <noscript> or <style> — is left alone.
// Used on our own index.html and on the admin's tracking codes (spec part 1 §3: head_tracking_codes,
// body_tracking_codes), which are kept exactly as written apart from the added attribute.
//
// The fragment is pasted into the page, so it must not swallow what follows it: an unterminated
// comment or raw-text element is closed at the end of the fragment and an unterminated tag is dropped
// (what a browser does with the same fragment on its own).

/** Elements whose content is text up to their end tag (RAWTEXT/RCDATA/script data with scripting on). */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const isAsciiLetter = (char: string | undefined) => char !== undefined && /[A-Za-z]/.test(char);
const isSpace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';

interface StartTag {
  name: string;
  /** Index just after the tag name: where an attribute can be inserted. */
  nameEnd: number;
  /** Index just after the closing `>`, or -1 when the fragment ends inside the tag. */
  end: number;
}

/** Reads a start tag at `start` (`<` followed by a letter): its name and where it ends, honouring quoted values. */
function readStartTag(html: string, start: number): StartTag {
  let i = start + 1;
  while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i++;
  const name = html.slice(start + 1, i).toLowerCase();
  const nameEnd = i;
  while (i < html.length) {
    const char = html[i];
    if (char === '>') return { name, nameEnd, end: i + 1 };
    if (isSpace(char) || char === '/') {
      i++;
      continue;
    }
    // Attribute name: its first character may be anything but space, '/' or '>' (even '=' or a quote).
    i++;
    while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++;
    let j = i;
    while (isSpace(html[j])) j++;
    if (html[j] !== '=') {
      i = j;
      continue;
    }
    j++;
    while (isSpace(html[j])) j++;
    const quote = html[j];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, j + 1);
      if (close === -1) return { name, nameEnd, end: -1 };
      i = close + 1;
    } else {
      // Unquoted value: up to a space or '>' (quotes inside it are ordinary characters).
      i = j;
      while (i < html.length && !isSpace(html[i]) && html[i] !== '>') i++;
    }
  }
  return { name, nameEnd, end: -1 };
}

/** Index where `</name` followed by a space, '/' or '>' starts, from `from`; -1 when absent. */
function findEndTag(html: string, name: string, from: number): number {
  const lower = html.toLowerCase();
  let at = lower.indexOf(`</${name}`, from);
  while (at !== -1) {
    const after = lower[at + 2 + name.length];
    if (after === undefined || isSpace(after) || after === '/' || after === '>') return at;
    at = lower.indexOf(`</${name}`, at + 1);
  }
  return -1;
}

/**
 * Where a script's body ends (the `</script` that closes it), following the tokenizer's script data
 * escape states: inside `<!--`, a nested `<script` makes the next `</script>` end only that nesting.
 */
function findScriptEnd(html: string, from: number): number {
  const lower = html.toLowerCase();
  let i = from;
  let escaped = false;
  let doubleEscaped = false;
  const tagBoundary = (at: number) => {
    const char = lower[at];
    return char === undefined || isSpace(char) || char === '/' || char === '>';
  };
  while (i < lower.length) {
    if (!escaped) {
      const close = findEndTag(lower, 'script', i);
      const open = lower.indexOf('<!--', i);
      if (open === -1 || (close !== -1 && close < open)) return close;
      escaped = true;
      i = open + 2; // so that '<!-->' ends the escape at once, as the tokenizer does
      continue;
    }
    // In the escaped state: the next '-->', '<script' or '</script' decides.
    const candidates = [
      { at: lower.indexOf('-->', i), kind: 'end-comment' as const },
      { at: lower.indexOf('<script', i), kind: 'open' as const },
      { at: lower.indexOf('</script', i), kind: 'close' as const },
    ].filter((c) => c.at !== -1 && (c.kind === 'end-comment' || tagBoundary(c.at + (c.kind === 'open' ? 7 : 8))));
    if (candidates.length === 0) return -1;
    const next = candidates.reduce((a, b) => (b.at < a.at ? b : a));
    if (next.kind === 'end-comment') {
      // '-->' leaves both escape levels (script data double escaped dash dash state).
      i = next.at + 3;
      escaped = false;
      doubleEscaped = false;
    } else if (next.kind === 'open') {
      doubleEscaped = true;
      i = next.at + 7;
    } else if (doubleEscaped) {
      doubleEscaped = false;
      i = next.at + 8;
    } else {
      return next.at;
    }
  }
  return -1;
}

/**
 * Returns `html` with ` nonce="…"` added first in every start tag named in `tags` (first, so it wins
 * over a nonce attribute the snippet already had: browsers keep the first of duplicate attributes).
 */
export function addNonceToTags(html: string, nonce: string, tags: ReadonlySet<string> = new Set(['script'])): string {
  const out: string[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      out.push(html.slice(i));
      break;
    }
    out.push(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      // Comments, including the empty forms <!--> and <!--->.
      const emptyEnd = html.startsWith('<!-->', lt) ? lt + 5 : html.startsWith('<!--->', lt) ? lt + 6 : -1;
      const close = emptyEnd !== -1 ? emptyEnd - 3 : html.indexOf('-->', lt + 4);
      if (close === -1) {
        out.push(html.slice(lt), '-->');
        break;
      }
      out.push(html.slice(lt, close + 3));
      i = close + 3;
    } else if (html[lt + 1] === '!' || html[lt + 1] === '?' || html[lt + 1] === '/') {
      // Doctype, bogus comment or end tag: up to the next '>'.
      const close = html.indexOf('>', lt);
      if (close === -1) break;
      out.push(html.slice(lt, close + 1));
      i = close + 1;
    } else if (isAsciiLetter(html[lt + 1])) {
      const tag = readStartTag(html, lt);
      if (tag.end === -1) break; // an unterminated tag would swallow the page after the fragment
      if (tags.has(tag.name)) out.push(html.slice(lt, tag.nameEnd), ` nonce="${nonce}"`, html.slice(tag.nameEnd, tag.end));
      else out.push(html.slice(lt, tag.end));
      i = tag.end;
      // In HTML a trailing '/' does not close an element: <script/> still starts a script body.
      if (RAW_TEXT_ELEMENTS.has(tag.name)) {
        const close = tag.name === 'script' ? findScriptEnd(html, i) : findEndTag(html, tag.name, i);
        if (close === -1) {
          out.push(html.slice(i), `</${tag.name}>`);
          break;
        }
        out.push(html.slice(i, close));
        i = close;
      }
    } else {
      out.push('<');
      i = lt + 1;
    }
  }
  return out.join('');
}
