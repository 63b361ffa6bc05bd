// Accessibility check: runs axe-core inside the page and fails on serious or critical violations.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** Returns the serious and critical violations on the page as it is now. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const runner = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const results = await runner.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact !== null && BLOCKING_IMPACTS.has(v.impact));
}

/** Throws a readable error listing every serious or critical violation on the page. */
export async function expectNoSeriousA11yViolations(page: Page, where: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  if (violations.length === 0) return;
  const lines = violations.map(
    (v) => `- [${v.impact}] ${v.id}: ${v.help}\n${v.nodes
      .slice(0, 5)
      .map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary?.split('\n').join(' ') ?? ''}`)
      .join('\n')}`,
  );
  throw new Error(`axe found ${violations.length} serious/critical violation(s) on ${where} (${page.url()}):\n${lines.join('\n')}`);
}
