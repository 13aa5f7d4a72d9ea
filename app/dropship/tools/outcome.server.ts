// What every Drop Ship Tools action answers (an Outcome: error or not, the
// message as codes, rendered in each reader's language when read (D137), what the log line names) and the refusals they
// share: the Manual Utilities (manual.server.ts) and Vendor Testing
// (vendor-testing.server.ts) both throw them, run.server.ts answers them.
import prisma from "~/db.server";
import type { DropshipRequest, Vendor } from "~/db/generated/client";
import { message, type RunMessage } from "~/runs/messages";

export interface Outcome {
  error: boolean;
  /** The answer, as codes: stored with the run, rendered in the reader's language, and in English for the log. */
  text: RunMessage;
  /** For the log line. */
  po?: string | null;
  sku?: string | null;
  file?: string | null;
  transmissionId?: number | null;
  /** The answer as a code with parameters, when it is one message (an error of the vendor's server): stored as it is. */
  coded?: RunMessage;
}

/** A refusal in words (unknown PO, missing folder, file of another type): answered 200 with error true. */
export class ToolRefusal extends Error {
  constructor(
    readonly text: RunMessage,
    readonly details: Pick<Outcome, "po" | "sku" | "file"> = {},
  ) {
    super("tool refusal");
  }
}

/** `vars` may hold messages (codes with parameters), rendered in each language. */
export function refuse(key: string, vars: Record<string, unknown> = {}, details: Pick<Outcome, "po" | "sku" | "file"> = {}): never {
  throw new ToolRefusal(message(key, vars), details);
}

export function assertConnectable(vendor: Vendor) {
  if (!vendor.sftp_host || !vendor.sftp_user) refuse("tools.not_configured", { name: vendor.name });
}

/** The request of that PO, which must be this vendor's. */
export async function requestOf(vendor: Vendor, po: string): Promise<DropshipRequest> {
  const request = await prisma.dropshipRequest.findUnique({ where: { po_number: po } });
  if (!request) return refuse("tools.messages.unknown_po", { po }, { po });
  if (request.vendor_id !== vendor.id) refuse("tools.messages.other_vendor_po", { po, other: request.vendor_name, name: vendor.name }, { po });
  return request;
}
