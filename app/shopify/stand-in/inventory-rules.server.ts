// API 2026-10 rules for inventorySetQuantities (D45: unchanged since 2026-04).
import { GraphqlRequestError } from "./common.server";

/**
 * More than 250 quantities: refused as a whole, as Shopify refuses a list input above its maximum size
 * (there is no userError code for it in InventorySetQuantitiesUserErrorCode). The removed compare fields
 * are refused by the schema now (./stand-in/request.server.ts, D160).
 */
export function refuseOversizedQuantities(variables: Record<string, unknown>) {
  const quantities = (variables.input as { quantities?: unknown } | undefined)?.quantities;
  if (!Array.isArray(quantities) || quantities.length <= 250) return;
  throw new GraphqlRequestError([
    {
      message: `The input array size of ${quantities.length} is greater than the maximum allowed of 250.`,
      path: ["inventorySetQuantities", "input", "quantities"],
      extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
    },
  ]);
}

/** The key of `@idempotent(key: $variable)` or `@idempotent(key: "literal")`; required from 2026-04. */
export function idempotencyKeyOf(document: string, variables: Record<string, unknown>): string {
  const directive = /@idempotent\s*\(\s*key\s*:\s*(?:\$(\w+)|"((?:[^"\\]|\\.)*)")\s*\)/.exec(document);
  const key = directive ? (directive[1] !== undefined ? variables[directive[1]] : directive[2]) : undefined;
  if (typeof key === "string" && key.length > 0 && key.length <= 255) return key;
  throw new GraphqlRequestError([
    {
      message: directive
        ? "The idempotency key must be a string of 1 to 255 characters."
        : "This mutation requires an idempotency key: use the @idempotent(key:) directive.",
      extensions: { code: "BAD_REQUEST" },
    },
  ]);
}

/** Answers given per idempotency key, per stand-in: a resend with the same key and input gets the same answer. */
const idempotentAnswers = new WeakMap<object, Map<string, { fingerprint: string; answer: unknown }>>();
export function idempotentAnswersOf(state: object) {
  let answers = idempotentAnswers.get(state);
  if (!answers) idempotentAnswers.set(state, (answers = new Map()));
  return answers;
}
