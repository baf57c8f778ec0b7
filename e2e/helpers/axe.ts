import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// Evaluated rather than added as a <script>: the app's Content Security Policy (rightly) refuses
// inline scripts, and the check must not need the policy loosened.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) in the page as it is now and returns the serious and
 * critical violations, one line per element, so a failing test names what to fix.
 */
export async function seriousAccessibilityProblems(page: Page, within?: string): Promise<AxeProblem[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  // Colours are measured as shown: let opening dialogs and menus finish fading in first. An
  // animation cancelled meanwhile (a transition replaced by the next one) rejects: that is done too.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
  const violations = await page.evaluate(async (selector) => {
    const axe = (
      window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }
    ).axe;
    // A dialog is checked on its own: the page behind it sits under the dimming overlay.
    const context = selector ? document.querySelector(selector) : document;
    const result = (await axe.run(context, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    })) as {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
    return result.violations.map((item) => ({
      id: item.id,
      impact: item.impact,
      help: item.help,
      targets: item.nodes.map((node) => node.target.join(" ")),
    }));
  }, within);
  return violations.filter((item) => item.impact === "serious" || item.impact === "critical");
}
