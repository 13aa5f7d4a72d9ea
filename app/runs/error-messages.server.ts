// The errors shown in banners (a vendor's server, a stored password, a path typed
// by staff) as messages in the reader's language (D117): each error carries a
// code with parameters besides its English message, which logs keep. Anything
// else shows its own words, as data.
import { SecretError } from "~/lib/secrets.server";
import { PathError, TransportError } from "@edi/transport";
import type { CodedMessage } from "@edi/messages";
import { message, plainText, type RunMessage } from "./messages";
import { errorMessage } from "~/lib/error-message";

export function errorRunMessage(error: unknown): RunMessage {
  if (error instanceof TransportError || error instanceof PathError) return error.coded;
  if (error instanceof SecretError) return message(`secrets.errors.${error.code}`);
  return plainText(errorMessage(error));
}

/** A problem of a vendor's EDI profile after the field's name: "EDI Identifier is required to exchange X12 with this vendor". */
export function fieldProblem(field: string, problem: CodedMessage): RunMessage {
  return message("edi_profile.field_problem", { field: message(`vendor.fields.${field}`), problem });
}
