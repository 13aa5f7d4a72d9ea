// A form schema's messages are codes (D127), written the same way in the
// browser and on the server: this module imports nothing of the server, so a
// form's schema module may be shared by its page and its route.
import { message } from "~/i18n/messages";

/** A translation key, as a zod message: "revise.errors.zip". */
export const CODE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

/**
 * A zod message that is a code with parameters: `z.string().min(1, coded("revise.errors.required", { field: message("revise.fields.qty") }))`.
 * zod keeps messages as strings, so the code travels as JSON and the parse at the edge reads it back.
 */
export const coded = (code: string, params?: Record<string, unknown>): string => (params ? JSON.stringify(message(code, params)) : code);
