// Layout checks jsdom cannot make (issue 28, item 5): in a table, every status badge and action button is
// shown whole — its label not cut into an ellipsis, its box inside the table's visible area and the
// viewport — and no date wraps onto a second line. Also: a banner never covers the page's header; and a
// screenshot of the screen as checked, under e2e/artifacts/layout/, for the notes.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './server-process';

const artifactsDir = path.join(repoRoot, 'e2e', 'artifacts');

/** Widths the screens are checked at: a laptop, and a phone (iPhone 12–15). */
export const LAYOUT_WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type LayoutWidth = keyof typeof LAYOUT_WIDTHS;

/**
 * What is cut off in the table (or other block: a row of tabs…), an empty list when nothing is: badges,
 * buttons and tabs whose label is ellipsised or that stick out of the block's visible box or the
 * viewport, and dates on more than one line. Each finding names the element and its text.
 */
export async function clippedInTable(table: Locator): Promise<string[]> {
  await table.scrollIntoViewIfNeeded();
  return table.evaluate((root) => {
    const found: string[] = [];
    // The visible box: the table's scroll container when it has one (Mantine's Table.ScrollContainer).
    let frame: Element = root;
    for (let node = root.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (/(auto|scroll|hidden)/.test(style.overflowX)) {
        frame = node;
        break;
      }
    }
    const box = frame.getBoundingClientRect();
    const viewport = document.documentElement.clientWidth;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim()}"`;
    const inside = (el: { getBoundingClientRect(): DOMRect }) => {
      const r = el.getBoundingClientRect();
      return r.left >= box.left - 1 && r.right <= box.right + 1 && r.left >= -1 && r.right <= viewport + 1;
    };
    for (const el of root.querySelectorAll('.mantine-Badge-root, button, a.mantine-Anchor-root, .mantine-SegmentedControl-control')) {
      if (!inside(el)) found.push(`${name(el)} outside the table's visible box or the viewport`);
      const label = el.querySelector('.mantine-Badge-label, .mantine-Button-label, .mantine-SegmentedControl-label') ?? el;
      if (label.scrollWidth > label.clientWidth + 1) found.push(`${name(el)} cut off (${label.clientWidth} of ${label.scrollWidth} px shown)`);
    }
    // Dates ("03 Nov 2026 10:05", "Nov 3, 2026", "3 nov 2026"): one line each.
    const date = /\b\d{4}\b/;
    for (const cell of root.querySelectorAll('td')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!date.test(text.textContent ?? '') || (text.textContent ?? '').includes('@')) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) found.push(`date "${(text.textContent ?? '').trim()}" on ${lines.size} lines`);
        if (!inside(range)) found.push(`date "${(text.textContent ?? '').trim()}" outside the table's visible box or the viewport`);
      }
    }
    return found;
  });
}

/** Whether `banner` overlaps any of `covered` (e.g. the phone header, the sidebar, the page's title). */
export async function overlaps(banner: Locator, covered: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([banner.boundingBox(), covered.boundingBox()]);
  if (!a || !b) return false;
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Sets the page to one of the checked widths and lets the layout settle. */
export async function atWidth(page: Page, width: LayoutWidth) {
  await page.setViewportSize(LAYOUT_WIDTHS[width]);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * A screenshot from the top of the page under e2e/artifacts/layout/ (gitignored), named for the notes: the
 * whole page, or only what the screen shows (`fullPage: false`: fixed and sticky bars where they really are).
 */
export async function layoutScreenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  const dir = path.join(artifactsDir, 'layout');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage });
  return file;
}
