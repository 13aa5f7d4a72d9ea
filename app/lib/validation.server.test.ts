// Forms declared once (D127): a schema's messages are codes, and the 422 says
// them in the reader's language, with the same body shape and the same English
// words as before.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { newRequestForm, requestForm } from "~/dropship/revise-forms";
import { toolForm } from "~/dropship/tool-form";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { message } from "~/i18n/messages";
import { manualAssignmentForm, ASSIGNMENT_FORM_SUMMARY } from "~/sales/assignment-forms";
import { parseInput, unprocessable, ValidationError } from "./validation.server";
import { REQUEST_SHIP_TO_FIELDS } from "../../tests/support/dropship-request-form";

let en: Translate;
let de: Translate;

beforeAll(async () => {
  en = await i18nServer.getFixedT("en", "common");
  de = await i18nServer.getFixedT("de", "common");
});

/** The 422 a route answers for `body` sent to `schema`, read as the browser gets it. */
async function answer422(run: () => unknown, t: Translate): Promise<{ status: number; body: { message: string; errors: Record<string, string[]> } }> {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const response = unprocessable(error, t);
    return { status: response.status, body: await response.json() };
  }
  throw new Error("no 422");
}

describe("a form's 422", () => {
  const bad = { item_sku: "", qty: "two", ship_address: "1\n2\n3\n4\n5", country_id: "USA" };

  it("is the same words in English as the per-area helpers wrote", async () => {
    const { status, body } = await answer422(() => parseInput(requestForm, bad), en);
    expect(status).toBe(422);
    expect(body.message).toBe("The request has errors.");
    expect(body.errors.item_sku).toEqual(["SKU is required"]);
    expect(body.errors.qty).toEqual(["Qty must be a whole number from 1 to 100000"]);
    expect(body.errors.ship_address).toEqual(["The address has at most 4 lines"]);
    expect(body.errors.country_id).toEqual(["Country must be at most 2 characters", "The country is a two-letter code such as US"]);
  });

  it("is in German for a German reader, field labels included", async () => {
    const { body } = await answer422(() => parseInput(requestForm, bad), de);
    expect(body.message).toBe("Die Anfrage enthält Fehler.");
    expect(body.errors.item_sku).toEqual(["SKU ist erforderlich"]);
    expect(body.errors.qty).toEqual(["Menge muss eine ganze Zahl von 1 bis 100000 sein"]);
    expect(body.errors.ship_address).toEqual(["Die Adresse hat höchstens 4 Zeilen"]);
  });

  it("keeps a form's own summary, and a domain rule's problem, as codes until rendered", async () => {
    const manual = await answer422(() => parseInput(manualAssignmentForm, { order_id: "100000001" }, ASSIGNMENT_FORM_SUMMARY.manual), en);
    expect(manual.body).toEqual({ message: "Something went wrong when creating assignments", errors: { assignments: ["Add at least one assignment."] } });
    const german = await answer422(() => parseInput(manualAssignmentForm, { order_id: "100000001" }, ASSIGNMENT_FORM_SUMMARY.manual), de);
    expect(german.body.errors.assignments).toEqual(["Fügen Sie mindestens eine Zuweisung hinzu."]);
    const rule = await answer422(() => {
      throw new ValidationError({ assignment_id: [message("revise.errors.no_assignment", { id: 42 })] });
    }, en);
    expect(rule.body.errors.assignment_id).toEqual(["Assignment 42 does not exist"]);
  });

  it("reports an action's missing input with the other fields' errors (Tools)", async () => {
    const { body } = await answer422(() => parseInput(toolForm, { vendor_id: "x", action: "855" }), en);
    expect(body.errors.ponum).toEqual(["ponum is required for 855."]);
    expect(Object.keys(body.errors)).toContain("vendor_id");
  });

  it("gives typed input when the form is valid", () => {
    const input = parseInput(newRequestForm, {
      assignment_id: "7",
      item_sku: " SKU-1 ",
      ...REQUEST_SHIP_TO_FIELDS,
    });
    expect(input).toMatchObject({ assignment_id: 7, item_sku: "SKU-1", qty: 2, country_id: "US" });
  });
});

describe("zod's own words never reach a reader (issue 32, D278)", () => {
  const schema = z.object({ alerts: z.object({ on: z.boolean() }), kind: z.enum(["a", "b"]), flag: z.union([z.literal(1), z.literal(0)]) });

  it("a missing object, an enum and a union without messages are codes, in the reader's language", async () => {
    const english = await answer422(() => parseInput(schema, { kind: "c", flag: 7 }), en);
    expect(english.body.errors).toEqual({ alerts: ["This field is required."], kind: ["Must be one of: a, b."], flag: ["This value is not valid."] });
    const german = await answer422(() => parseInput(schema, { kind: "c", flag: 7 }), de);
    expect(german.body.errors).toEqual({
      alerts: ["Dieses Feld ist erforderlich."],
      kind: ["Muss einer der folgenden Werte sein: a, b."],
      flag: ["Dieser Wert ist ungültig."],
    });
  });

  it("a schema's own message wins over the fallback", async () => {
    const own = z.object({ ship_zip: z.string({ message: "revise.errors.zip" }) });
    const problems = await answer422(() => parseInput(own, {}), en);
    expect(problems.body.errors.ship_zip).toEqual(["The ZIP may contain letters, digits, spaces and '-'"]);
  });
});
