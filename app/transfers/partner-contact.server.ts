// Whether a partner's server answered (D241): every connection to a vendor or
// the AS400 notes its outcome, so "unreachable on its last N runs" is one row
// per partner to read, not a search through logs. A failure is noted only when
// the connection itself failed (login, host key, network), not when work on a
// connected server failed: that is the work's own problem, logged by it. A success over a
// success only refreshes last_ok_at every ten minutes (D253).
import prisma from "~/db.server";
import { logger } from "~/observability/logger.server";

const log = logger("transfers");
import { withTransport, type ConnectionSettings, type VendorTransport } from "@edi/transport";

export type Partner = { partner: "as400" } | { partner: `vendor:${number}`; vendorId: number };

export const vendorPartner = (vendorId: number): Partner => ({ partner: `vendor:${vendorId}`, vendorId });
export const AS400_PARTNER: Partner = { partner: "as400" };

const vendorIdOf = (partner: Partner) => ("vendorId" in partner ? partner.vendorId : null);

/** One connection, its outcome noted for the partner. */
export async function withPartnerTransport<T>(partner: Partner, settings: ConnectionSettings, work: (transport: VendorTransport) => Promise<T>): Promise<T> {
  let connected = false;
  try {
    return await withTransport(settings, async (transport) => {
      connected = true;
      await noteContact(partner, null);
      return work(transport);
    });
  } catch (error) {
    if (!connected) await noteContact(partner, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * A success after a success changes no row unless its last_ok_at is this old: the minute watch connects to every
 * vendor every minute, and writes nothing when nothing changed (D253).
 */
const OK_REFRESH_MS = 10 * 60_000;

/** Notes a connection's outcome: null when it connected, else why not. Never fails the work it observes. */
export async function noteContact(partner: Partner, failure: string | null, now = new Date()): Promise<void> {
  try {
    if (failure === null) {
      await prisma.$executeRaw`
        INSERT INTO partner_contact (partner, vendor_id, failures, last_ok_at, updated_at)
        VALUES (${partner.partner}, ${vendorIdOf(partner)}, 0, ${now}, ${now})
        ON CONFLICT (partner) DO UPDATE SET failures = 0, first_failed_at = NULL, last_ok_at = ${now}, updated_at = ${now}
         WHERE partner_contact.failures <> 0 OR partner_contact.last_ok_at IS NULL
            OR partner_contact.last_ok_at < ${new Date(now.getTime() - OK_REFRESH_MS)}`;
    } else {
      await prisma.$executeRaw`
        INSERT INTO partner_contact (partner, vendor_id, failures, first_failed_at, last_failed_at, last_error, updated_at)
        VALUES (${partner.partner}, ${vendorIdOf(partner)}, 1, ${now}, ${now}, ${failure.slice(0, 1000)}, ${now})
        ON CONFLICT (partner) DO UPDATE SET failures = partner_contact.failures + 1,
               first_failed_at = COALESCE(partner_contact.first_failed_at, ${now}),
               last_failed_at = ${now}, last_error = ${failure.slice(0, 1000)}, updated_at = ${now}`;
    }
  } catch (error) {
    log.warn({ err: error, partner: partner.partner }, "could not note the partner's connection outcome");
  }
}
