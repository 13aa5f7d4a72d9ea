/** The words of a thrown value: an Error's message, anything else as text. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
