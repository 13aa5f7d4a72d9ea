// What a vendor answers to our cancellations (D225), made up, as files: an 865
// per cancelled PO for an X12 vendor, one cancellation-answer CSV for a CSV
// vendor. It accepts, unless the caller says the PO has shipped: then it
// refuses. Vendor Testing, local mode's demo vendor and the tests answer with
// it; pure, like vendor-answers.ts (time, numbers and what shipped passed in).
import { cancellationsInFile, type CancellationAnswer, type CancellationFormat, type CancellationInFile } from "@edi/cancellations";
import { writeCancellationAnswerCsv } from "@edi/csv";
import { build865 } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { answerDelimiters, envelope, fileNameFor, profileOf, type AnswerOptions, type DemoVendor, type OutFile } from "./vendor-answers";

export interface CancellationAnswerOptions extends AnswerOptions {
  /** Why the vendor refuses a PO's cancellation ("shipped 2026-11-20"), or null to accept it. */
  refusal: (poNumber: string) => string | null;
}

export interface CancellationFileAnswer {
  files: OutFile[];
  /** Each PO answered, and how. */
  answered: Array<{ poNumber: string; outcome: CancellationAnswer["outcome"] }>;
  nextControlNumber: number;
}

/** Which of our formats a cancellation file is in, from its content: the CSV for a CSV vendor, else the set it carries. */
function formatOf(content: Buffer, csv: boolean): CancellationFormat {
  if (csv) return "csv";
  const sets = readX12(content).interchanges.flatMap((interchange) => interchange.groups.flatMap((group) => group.transactions.map((t) => t.setId)));
  return sets.includes("860") ? "860" : "850";
}

export function answerCancellationFile(
  vendor: DemoVendor,
  fileName: string,
  content: Buffer,
  options: CancellationAnswerOptions,
): CancellationFileAnswer | { error: string } {
  const setup = profileOf(vendor, options);
  if ("error" in setup) return setup;
  const { profile, fields } = setup;
  const cancellations = cancellationsInFile(content, formatOf(content, profile.format === "csv"));
  if (cancellations.length === 0) return { error: `${fileName} holds no cancellation` };
  const answers = cancellations.map((cancellation) => answerOf(cancellation, options.refusal(cancellation.poNumber)));
  const answered = answers.map((answer) => ({ poNumber: answer.poNumber, outcome: answer.outcome }));
  let next = options.controlNumberStart;
  if (profile.format === "csv") {
    const file = { name: fileNameFor("ANSWER_CANCEL", vendor, profile, options.now, next), content: writeCancellationAnswerCsv(answers).text };
    return { files: [file], answered, nextControlNumber: next + 1 };
  }
  const delimiters = answerDelimiters(fields, profile);
  const files = answers.map((answer, i) => {
    const control = next++;
    const cancellation = cancellations[i];
    const set = build865(
      {
        purpose: cancellation.wholeOrder ? "01" : "04",
        ackType: answer.outcome === "accepted" ? "AT" : "RJ",
        poNumber: answer.poNumber,
        // BCA06, mandatory, is the PO's date as our file gave it.
        poDate: cancellation.poDate ?? options.now.toISOString().slice(0, 10),
        ...(cancellation.changeNumber !== undefined ? { changeNumber: String(cancellation.changeNumber) } : {}),
        lines: cancellation.lines.map((line) => ({
          lineNumber: line.lineNumber,
          changeType: line.remaining === 0 ? "DI" : "QD",
          quantity: line.remaining === 0 ? (line.cancelled ?? line.ordered) : line.remaining,
          sku: line.sku,
          acks: [{ code: answer.outcome === "accepted" ? "ID" : "IR", quantity: line.cancelled ?? line.remaining }],
        })),
      },
      String(control).padStart(4, "0"),
    );
    return {
      name: fileNameFor("865", vendor, profile, options.now, control),
      content: envelope(profile, delimiters, options.now, control, "CA", "865", [set]),
    };
  });
  return { files, answered, nextControlNumber: next };
}

function answerOf(cancellation: CancellationInFile, refusal: string | null): CancellationAnswer {
  const outcome = refusal ? "refused" : "accepted";
  return {
    poNumber: cancellation.poNumber,
    ...(cancellation.changeNumber !== undefined ? { changeNumber: cancellation.changeNumber } : {}),
    outcome,
    lines: cancellation.lines.map((line) => ({
      lineNumber: line.lineNumber,
      sku: line.sku,
      ...(line.cancelled !== undefined ? { quantity: line.cancelled } : {}),
      outcome,
      ...(refusal ? { reason: refusal } : {}),
    })),
    codes: [],
    ...(refusal ? { reason: refusal } : {}),
  };
}
