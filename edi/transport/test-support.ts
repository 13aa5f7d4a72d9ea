// What the transport tests share, against the in-process servers and the system's.
import { expect } from "vitest";
import { TransportError } from "./errors";

/** Bytes that are not text: a transfer in ASCII mode would mangle them. */
export function binaryContent(size: number): Buffer {
  const content = Buffer.alloc(size);
  for (let index = 0; index < size; index++) content[index] = (index * 31 + 7) % 256;
  return content;
}

/** The TransportError `promise` fails with, after `check` (a password never in it, say); fails the test if it succeeds. */
export async function transportFailure(promise: Promise<unknown>, check: (error: unknown) => void = () => {}): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransportError);
    check(error);
    return error as TransportError;
  }
  throw new Error("expected a TransportError, but the operation succeeded");
}
