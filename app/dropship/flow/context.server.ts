// What every drop-ship step shares: our X12 identity, a vendor's trading
// profile, the log writer, and the step result a feed and the Test page show.
import { createHash } from "node:crypto";
import prisma from "~/db.server";
import type { Prisma, Vendor } from "~/db/generated/client";
import { env } from "~/env.server";
import { ensureControlSequence } from "@edi/control-numbers";
import { tradingProfile, type OurIdentity, type TradingProfile } from "@edi/vendor-profile";
import type { DropshipLogAction, DropshipLogStatus } from "../grids.server";
import { prismaField, VENDOR_FIELDS } from "../vendor-fields";
import { reportFeedProgress } from "~/feeds/progress.server";
import { fieldProblem } from "~/runs/error-messages.server";
import { englishText } from "~/i18n/english.server";
import { plainText, withProblems, type RunMessage } from "~/i18n/messages";

export function ourIdentity(): OurIdentity {
  const config = env();
  return { qualifier: config.EDI_SENDER_QUALIFIER, id: config.EDI_SENDER_ID, testId: config.EDI_TEST_SENDER_ID };
}

/**
 * The vendor's trading profile, or the problems that stop any exchange with it:
 * in English for logs, and as codes for the reader's language (D117).
 */
export function vendorProfile(vendor: Vendor): { profile: TradingProfile; problems: string[]; problemCodes: RunMessage[] } {
  const row = vendor as unknown as Record<string, unknown>;
  const fields = Object.fromEntries(VENDOR_FIELDS.map((field) => [field.name, row[prismaField(field.name)] ?? null]));
  const { profile, errors, problems } = tradingProfile({ ...fields, id: vendor.id, name: vendor.name }, ourIdentity());
  return {
    profile,
    problems: Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`)),
    problemCodes: Object.entries(problems).flatMap(([field, coded]) => coded.map((problem) => fieldProblem(field, problem))),
  };
}

export const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");

/** A log line: `message` is its English text, `message_code` the same as a code (logMessage, D114). */
export type LogEntry = Omit<Prisma.DropshipLogCreateManyInput, "action" | "status" | "message_code"> & {
  action: DropshipLogAction;
  status: DropshipLogStatus;
  message_code?: RunMessage;
};

export const vendorLog = (vendor: Pick<Vendor, "id" | "name">) => ({ vendor_id: vendor.id, vendor_name: vendor.name });

/**
 * Writes drop-ship log lines, in one statement, in the order given; inside a transaction when given one.
 * One array per column (unnest), not a model call: Prisma keeps its last hundred debug entries, each
 * model call's query plan with every value of its rows among them, so thousands of log rows written
 * through createMany stayed in memory for a step and the next (D140).
 */
export async function writeLogs(entries: LogEntry[], db: Prisma.TransactionClient = prisma) {
  if (entries.length === 0) return;
  const column = <T>(pick: (entry: LogEntry) => T | null | undefined) => entries.map((entry) => pick(entry) ?? null);
  await db.$executeRaw`
    INSERT INTO dropship_log (vendor_id, vendor_name, action, status, po_number, order_increment_id, item_sku, qty,
                              tracking_number, file_name, transmission_id, message, message_code, created_at)
    SELECT vendor_id, vendor_name, action, status, po_number, order_increment_id, item_sku, qty,
           tracking_number, file_name, transmission_id, message, message_code::jsonb, coalesce(created_at, statement_timestamp())
      FROM unnest(${column((e) => e.vendor_id)}::int[], ${column((e) => e.vendor_name)}::text[], ${column((e) => e.action)}::text[],
                  ${column((e) => e.status)}::text[], ${column((e) => e.po_number)}::text[], ${column((e) => e.order_increment_id)}::text[],
                  ${column((e) => e.item_sku)}::text[], ${column((e) => e.qty)}::int[], ${column((e) => e.tracking_number)}::text[],
                  ${column((e) => e.file_name)}::text[], ${column((e) => e.transmission_id)}::int[], ${column((e) => e.message)}::text[],
                  ${column((e) => (e.message_code === undefined ? null : JSON.stringify(e.message_code)))}::text[],
                  ${column((e) => (e.created_at === undefined || e.created_at === null ? null : new Date(e.created_at).toISOString()))}::timestamptz[])
           WITH ORDINALITY AS l(vendor_id, vendor_name, action, status, po_number, order_increment_id, item_sku, qty,
                                tracking_number, file_name, transmission_id, message, message_code, created_at, n)
     ORDER BY n`;
}

/** What a step did, in the words shown on the Test page and kept in the feed log. */
export interface StepResult {
  message: string;
  /** true when any part failed (a vendor down, a file refused): the rest still ran. */
  error: boolean;
  meta: Record<string, unknown>;
  /** The summary as a code with parameters, shown in the reader's language (D96); `message` is its English log text. */
  summary?: RunMessage;
  /** The problems, in English like the logs. */
  problems?: string[];
  /** The same problems as codes, shown in the reader's language (D114). */
  problemCodes?: RunMessage[];
  /** `message` as a code: the summary and the first problems (the feed log's message_code). */
  messageCode?: RunMessage;
}

/** Collects a step's counts and problems into its result. */
export class StepReport {
  readonly counts: Record<string, number> = {};
  readonly problems: string[] = [];
  readonly problemCodes: RunMessage[] = [];
  /** What the summary must say besides its counts, not being a problem (a file another live run is uploading). */
  readonly notes: RunMessage[] = [];

  count(key: string, by = 1) {
    this.counts[key] = (this.counts[key] ?? 0) + by;
    // A long step shows how far it got on its feed log (nothing outside a feed run).
    reportFeedProgress({ [key]: this.counts[key] });
  }

  /**
   * A problem as a code (logMessage's code and params), or as text when it is
   * data (a server's words); or its English words with the same as a code
   * (`coded`, D117), when the English was written first.
   */
  problem(problem: string | RunMessage, coded?: RunMessage) {
    const code = withoutRepeatedVendor(coded ?? (typeof problem === "string" ? plainText(problem) : problem));
    this.problems.push(typeof problem === "string" ? withoutRepeatedPrefix(problem) : englishText(code));
    this.problemCodes.push(code);
  }

  note(note: RunMessage) {
    this.notes.push(note);
  }

  private bar: { done: number; total: number; unit: string } | null = null;

  /** Items done of a known total: the progress bar of a run (nothing outside a feed run). */
  progress(done: number, total: number, unit: string) {
    this.bar = { done, total, unit };
    reportFeedProgress({ done, total, unit });
  }

  /** One more item done of the total last given to progress() (none given: nothing to move). */
  advance() {
    if (!this.bar) return;
    this.progress(Math.min(this.bar.done + 1, this.bar.total), this.bar.total, this.bar.unit);
  }

  result(summary: string, coded?: RunMessage): StepResult {
    const trouble = this.problems.length
      ? ` Problems: ${this.problems.slice(0, 5).join("; ")}${this.problems.length > 5 ? ` (and ${this.problems.length - 5} more)` : ""}.`
      : "";
    return {
      message: `${summary}${trouble}`,
      error: this.problems.length > 0,
      meta: { ...this.counts, problems: this.problems.slice(0, 50), ...(this.problemCodes.length ? { problem_codes: this.problemCodes.slice(0, 50) } : {}) },
      ...(coded ? { summary: coded, messageCode: withProblems(coded, this.problemCodes) } : {}),
      problems: this.problems.slice(0, 50),
      problemCodes: this.problemCodes.slice(0, 50),
    };
  }
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * A vendor's transport error already starts with the vendor's name (its label): a problem that puts the
 * name before it would say it twice ("Acme: Acme: Wrong user name…"). The error's own message is kept
 * without its label where the problem names the same vendor.
 */
function withoutRepeatedVendor(problem: RunMessage): RunMessage {
  if (!("code" in problem) || !problem.params) return problem;
  const { vendor, error } = problem.params as { vendor?: unknown; error?: unknown };
  const labelled = error as { code?: string; params?: { label?: unknown; message?: unknown } } | undefined;
  if (typeof vendor !== "string" || labelled?.code !== "transport.labelled" || labelled.params?.label !== vendor) return problem;
  return { ...problem, params: { ...problem.params, error: labelled.params.message } } as RunMessage;
}

/** "Acme: Acme: Wrong user name…" → "Acme: Wrong user name…" (the English words of the same problem). */
function withoutRepeatedPrefix(text: string): string {
  const match = /^([^:]{1,200}): \1: /.exec(text);
  return match ? text.slice(match[1]!.length + 2) : text;
}

const ensuredSequences = new Set<number>();

/** The vendor's control-number sequence exists before a transaction draws from it (checked once per process). */
export async function ensureVendorSequence(vendorId: number) {
  if (ensuredSequences.has(vendorId)) return;
  await ensureControlSequence((sql, params) => prisma.$queryRawUnsafe(sql, ...params), vendorId);
  ensuredSequences.add(vendorId);
}
