// The AS400 / order-system exchange: its connection, from env (AS400_*). Every
// area that exchanges files with the AS400 connects with these settings; a
// vendor's connection is app/dropship/vendor-connection.server.ts.
import { env } from "~/env.server";
import { appOutboundPolicy } from "~/transfers/outbound-policy.server";
import { AS400_PARTNER, withPartnerTransport } from "~/transfers/partner-contact.server";
import type { ConnectionSettings, TransferMechanism, VendorTransport } from "@edi/transport";

/** The AS400 / order-system exchange configured in env, or null when it is not. */
export function as400ConnectionSettings(): ConnectionSettings | null {
  const config = env();
  if (!config.AS400_HOST) return null;
  return {
    mechanism: (config.AS400_TRANSFER_MECHANISM ?? 1) as TransferMechanism,
    host: config.AS400_HOST,
    port: config.AS400_PORT,
    user: config.AS400_USER ?? "",
    password: config.AS400_PASSWORD ?? "",
    hostKey: config.AS400_HOST_KEY ?? null,
    // Nothing keeps a pin for the AS400: in embedded mode its key or certificate is AS400_HOST_KEY or trusted by a CA.
    trustOnFirstUse: config.mode === "local",
    tls: config.AS400_FTP_TLS === 1,
    label: "AS400",
    maxDownloadBytes: config.MAX_DOWNLOAD_MB * 1024 * 1024,
    outbound: appOutboundPolicy(),
  };
}

/** One connection to the AS400, its outcome noted (an AS400 unreachable on its last runs needs a person, D241). */
export function withAs400Transport<T>(settings: ConnectionSettings, work: (transport: VendorTransport) => Promise<T>): Promise<T> {
  return withPartnerTransport(AS400_PARTNER, settings, work);
}
