// The errors shown in banners (a vendor's server, a stored password, a path typed
// by staff) as messages in the reader's language (D117): each error carries a
// code with parameters besides its English message, which logs keep. Anything
// else shows its own words, as data.
import { SecretError } from "~/lib/secrets.server";
import { PathError, TransportError } from "../../edi/transport/errors";
import { message, plainText, type RunMessage } from "./messages";

export function errorRunMessage(error: unknown): RunMessage {
  if (error instanceof TransportError || error instanceof PathError) return error.coded;
  if (error instanceof SecretError) return message(`secrets.errors.${error.code}`);
  return plainText(error instanceof Error ? error.message : String(error));
}
