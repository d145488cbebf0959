import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page (evaluated, so the app's CSP does not block it) and returns the
 * serious and critical violations.
 */
export async function seriousA11yViolations(page: Page, selector?: string): Promise<AxeViolation[]> {
  // Colours are judged mid-fade otherwise (a dialog fading in has low contrast for a moment).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(axeSource);
  return page.evaluate(async (context) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated source defines
    const axe = (window as any).axe;
    const result = await axe.run(context ?? document, { resultTypes: ['violations'] });
    return (
      result.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[]
    )
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      }));
  }, selector);
}
