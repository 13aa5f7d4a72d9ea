// The outbound policy of this app (D195): OUTBOUND_ALLOW, or loopback in local mode (the
// demo vendor and demo AS400 listen there), and never the app's own database.
import { env } from "~/env.server";
import { outboundPolicy, type OutboundPolicy } from "@edi/transport";

export function appOutboundPolicy(): OutboundPolicy {
  const config = env();
  return outboundPolicy({
    allow: config.OUTBOUND_ALLOW ?? (config.mode === "local" ? "loopback" : ""),
    databaseUrl: config.DATABASE_URL,
    embeddedDatabasePort: config.PG_PORT,
  });
}
