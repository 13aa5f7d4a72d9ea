// Vendor and AS400 file transfer: one interface (VendorTransport), three mechanisms.
import { TransportError } from "./errors";
import { connectFtp } from "./ftp";
import { connectSftp } from "./sftp";
import { type ConnectionSettings, DEFAULT_RETRIES, DEFAULT_RETRY_DELAY_MS, type VendorTransport } from "./types";

export * from "./types";
export * from "./errors";
export * from "./paths";
export * from "./fingerprint";
export * from "./settle";
export * from "./in-flight";
export * from "./outbound-policy";
export { sshFingerprint } from "./sftp";

/**
 * Connects with the vendor's mechanism. Connection faults (unreachable, timeout, connection
 * lost) are retried `retries` times, pausing `retryDelayMs` and doubling; wrong credentials
 * and a changed host key fail at once, since trying again cannot help.
 */
export async function connectTransport(settings: ConnectionSettings): Promise<VendorTransport> {
  const retries = Math.max(0, settings.retries ?? DEFAULT_RETRIES);
  let delayMs = settings.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await connectOnce(settings);
    } catch (error) {
      const retryable = error instanceof TransportError && error.isConnectionFault;
      if (!retryable || attempt >= retries) throw error;
      await sleep(delayMs);
      delayMs *= 2;
    }
  }
}

/** One connection for the whole of `work`, closed afterwards whether `work` succeeds or throws. */
export async function withTransport<T>(settings: ConnectionSettings, work: (transport: VendorTransport) => Promise<T>): Promise<T> {
  const transport = await connectTransport(settings);
  try {
    return await work(transport);
  } finally {
    // A failure to say goodbye must not hide the work's own result or error.
    await transport.close().catch(() => undefined);
  }
}

function connectOnce(settings: ConnectionSettings): Promise<VendorTransport> {
  switch (settings.mechanism) {
    case 1:
      return connectSftp(settings);
    case 2:
    case 3:
      return connectFtp(settings);
    default:
      throw new TypeError(`Unknown transfer mechanism ${String((settings as { mechanism: unknown }).mechanism)} (1 SFTP, 2 FTP, 3 passive FTP)`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
