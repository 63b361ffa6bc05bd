// The first screens' Mantine styles must keep Mantine's own order: rules of equal specificity apply in file
// order, and Button's colours were lost to UnstyledButton's transparent background when Button came first.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Under jsdom import.meta.url is not a file URL: find the file from the working directory (root or web/).
const listPath = ['web/src/app/mantine-first.css', 'src/app/mantine-first.css'].map((p) => path.resolve(p)).find((p) => existsSync(p)) ?? '';
const require = createRequire(listPath);
const full = readFileSync(require.resolve('@mantine/core/styles.layer.css'), 'utf8');
const list = readFileSync(listPath, 'utf8');

/** Where a component's first class stands in Mantine's full stylesheet. */
function positionOf(file: string): number {
  const css = readFileSync(require.resolve(`@mantine/core/styles/${file}`), 'utf8');
  const firstClass = /\.(m_[0-9a-f]{8})/.exec(css)?.[1];
  return firstClass ? full.indexOf(firstClass) : -1;
}

describe('mantine-first.css', () => {
  it("imports the components in Mantine's own order", () => {
    const files = [...list.matchAll(/@import '@mantine\/core\/styles\/([A-Za-z]+\.layer\.css)'/g)].map((m) => m[1]);
    const components = files.filter((file) => positionOf(file) >= 0);
    expect(components.length).toBeGreaterThan(10);
    expect(components).toEqual([...components].sort((a, b) => positionOf(a) - positionOf(b)));
  });
});
