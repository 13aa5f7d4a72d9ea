// The accessibility check of the end-to-end tests (issue 18 item 5, docs/decisions.md D110):
// axe-core's WCAG 2.0/2.1 A and AA rules, plus label-content-name-mismatch (WCAG 2.5.3,
// tagged experimental in axe-core so not run by its tags alone). A test fails on any
// serious or critical violation; the message lists rule, impact, help and targets.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;
export type Violation = AxeResults["violations"][number];

/** axe over the page (or, with `include`, only inside that element: the app's frame in embedded mode). */
export function axeFor(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).options({ rules: { "label-content-name-mismatch": { enabled: true } } }).withTags(WCAG_TAGS);
  return include ? builder.include(include) : builder;
}

/** The serious and critical violations: those the tests refuse. */
export function blocking(results: AxeResults): Violation[] {
  return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** One line per violation with up to 5 of its targets, for a test's failure message. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((violation) => {
      const targets = violation.nodes.map((node) => JSON.stringify(node.target));
      const shown = targets.slice(0, 5).join(", ") + (targets.length > 5 ? ` and ${targets.length - 5} more` : "");
      return `- ${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help} [${violation.helpUrl}]\n    ${shown}`;
    })
    .join("\n");
}
