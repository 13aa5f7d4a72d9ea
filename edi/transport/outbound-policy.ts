// Where the app may connect (D195): a vendor's or the AS400's host is resolved
// once, every address it resolves to is checked, and the transport connects to
// the checked address itself, so a name that resolves again to another address
// (DNS rebinding) cannot pass. Loopback, link-local, private, unspecified,
// multicast and reserved addresses are refused unless OUTBOUND_ALLOW names them,
// and the app's own database (address and port) is refused always. The refusal
// comes before any byte is sent, in the same words whether a port is open or not.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { coded } from "../messages";
import { type TransportErrors, unreachableReason } from "./errors";
import type { ConnectionSettings } from "./types";

/** Ranges refused unless allowed; the names are what OUTBOUND_ALLOW uses as words. */
export const ADDRESS_RANGES = {
  loopback: ["127.0.0.0/8", "::1/128"],
  "link-local": ["169.254.0.0/16", "fe80::/10"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"],
  unspecified: ["0.0.0.0/8", "::/128"],
  multicast: ["224.0.0.0/4", "ff00::/8"],
  reserved: ["240.0.0.0/4"],
} as const;

export type AddressRange = keyof typeof ADDRESS_RANGES;
const RANGE_NAMES = Object.keys(ADDRESS_RANGES) as AddressRange[];

export interface OutboundPolicy {
  /** Ranges allowed by name (OUTBOUND_ALLOW words). */
  readonly allowedRanges: ReadonlySet<AddressRange>;
  /** Addresses and subnets allowed explicitly (OUTBOUND_ALLOW CIDRs and addresses). */
  readonly allowed: BlockList;
  /** The app's own database: never a vendor's server, whatever OUTBOUND_ALLOW says. */
  readonly databases: ReadonlyArray<{ host: string; port: number }>;
}

/** Why an address is refused: one of the ranges, or the app's database. */
export type OutboundRefusal = AddressRange | "database";

/**
 * OUTBOUND_ALLOW: a comma list of range words (loopback, link-local, private,
 * unspecified, multicast, reserved), addresses or CIDRs ("10.20.0.0/16",
 * "fd00::5"), or "none". Returns the problems found, or the parsed list.
 */
export function parseOutboundAllow(text: string): { ranges: AddressRange[]; subnets: Array<{ address: string; prefix: number }> } | { problems: string[] } {
  const ranges: AddressRange[] = [];
  const subnets: Array<{ address: string; prefix: number }> = [];
  const problems: string[] = [];
  for (const item of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    // "none": nothing beyond public addresses, said explicitly (a blank value is "unset", local mode's loopback).
    if (item.toLowerCase() === "none") continue;
    if ((RANGE_NAMES as string[]).includes(item.toLowerCase())) {
      ranges.push(item.toLowerCase() as AddressRange);
      continue;
    }
    const [address = "", prefixText] = item.split("/");
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!family || !(prefix >= 0 && prefix <= max)) problems.push(item);
    else subnets.push({ address, prefix });
  }
  return problems.length ? { problems } : { ranges, subnets };
}

export interface OutboundPolicyOptions {
  /** OUTBOUND_ALLOW as configured; unset or blank allows none of the ranges. */
  allow?: string;
  /** The app's database connection string (DATABASE_URL), or the embedded PostgreSQL's port. */
  databaseUrl?: string;
  embeddedDatabasePort?: number;
}

export function outboundPolicy(options: OutboundPolicyOptions): OutboundPolicy {
  const parsed = parseOutboundAllow(options.allow ?? "");
  if ("problems" in parsed) throw new Error(`OUTBOUND_ALLOW: not a range word, an address or a CIDR: ${parsed.problems.join(", ")}`);
  const allowed = new BlockList();
  for (const { address, prefix } of parsed.subnets) allowed.addSubnet(address, prefix, isIP(address) === 6 ? "ipv6" : "ipv4");
  return { allowedRanges: new Set(parsed.ranges), allowed, databases: databaseEndpoints(options) };
}

function databaseEndpoints(options: OutboundPolicyOptions): Array<{ host: string; port: number }> {
  if (!options.databaseUrl) return options.embeddedDatabasePort ? [{ host: "127.0.0.1", port: options.embeddedDatabasePort }] : [];
  try {
    const url = new URL(options.databaseUrl);
    const host = url.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
    return [{ host, port: Number(url.port || 5432) }];
  } catch {
    return [];
  }
}

/**
 * The policy when a caller gives none (the CLI, a library user): from the process's
 * own OUTBOUND_ALLOW and DATABASE_URL, so that forgetting it never opens the network.
 */
export function processOutboundPolicy(): OutboundPolicy {
  return outboundPolicy({ allow: process.env.OUTBOUND_ALLOW, databaseUrl: process.env.DATABASE_URL });
}

const RANGE_LISTS = new Map(
  RANGE_NAMES.map((name) => {
    const list = new BlockList();
    for (const cidr of ADDRESS_RANGES[name]) {
      const [address, prefix] = cidr.split("/") as [string, string];
      list.addSubnet(address, Number(prefix), isIP(address) === 6 ? "ipv6" : "ipv4");
    }
    return [name, list] as const;
  }),
);

/** "::ffff:127.0.0.1" is 127.0.0.1: an IPv4 address written as IPv6 is checked as IPv4. */
function plainAddress(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** The refused range an address falls in, or null for an ordinary (public) address. */
export function addressRange(address: string): AddressRange | null {
  const plain = plainAddress(address);
  for (const name of RANGE_NAMES) if (RANGE_LISTS.get(name)!.check(plain.address, plain.family)) return name;
  return null;
}

/** Why `address:port` may not be connected to under `policy`, or null when it may. */
export async function outboundRefusal(policy: OutboundPolicy, address: string, port: number): Promise<OutboundRefusal | null> {
  const plain = plainAddress(address);
  for (const database of policy.databases) {
    if (database.port === port && (await resolvedAddresses(database.host)).some((one) => plainAddress(one).address === plain.address)) return "database";
  }
  return rangeRefusal(policy, address);
}

/**
 * The same check for an address typed as it is (a vendor's host saved as an IP address), without
 * resolving anything: the database only when its host is that very address. Null for a host name.
 */
export function literalRefusal(policy: OutboundPolicy, host: string, port: number): OutboundRefusal | null {
  if (!isIP(host)) return null;
  const plain = plainAddress(host);
  if (policy.databases.some((database) => database.port === port && plainAddress(database.host).address === plain.address)) return "database";
  return rangeRefusal(policy, host);
}

function rangeRefusal(policy: OutboundPolicy, address: string): AddressRange | null {
  const plain = plainAddress(address);
  const range = addressRange(address);
  if (!range) return null;
  if (policy.allowedRanges.has(range) || policy.allowed.check(plain.address, plain.family)) return null;
  return range;
}

async function resolvedAddresses(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

/** A host that resolves (or is) an address the policy refuses; `reason` names why. */
export class OutboundRefused extends Error {
  constructor(
    readonly host: string,
    readonly reason: OutboundRefusal,
  ) {
    super(`Connections to ${host} are not allowed (${reason}): see OUTBOUND_ALLOW`);
    this.name = "OutboundRefused";
  }
}

/**
 * The address to connect to for `host`: resolved once, every address checked (a
 * name with one refused address among others is refused), the first returned.
 * Throws OutboundRefused, or the resolver's own error (ENOTFOUND…) for the caller to classify.
 */
export async function checkedAddress(policy: OutboundPolicy, host: string, port: number): Promise<string> {
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  for (const address of addresses) {
    const refusal = await outboundRefusal(policy, address, port);
    if (refusal) throw new OutboundRefused(host, refusal);
  }
  return addresses[0]!;
}

/**
 * The checked address to connect to for `settings.host`, as a transport error when it is refused
 * (kind "protocol": trying again cannot help) or does not resolve ("unreachable").
 */
export async function connectAddress(settings: Pick<ConnectionSettings, "host" | "outbound">, port: number, errors: TransportErrors): Promise<string> {
  try {
    return await checkedAddress(settings.outbound ?? processOutboundPolicy(), settings.host, port);
  } catch (error) {
    if (error instanceof OutboundRefused) {
      throw errors.protocol(
        "outbound_refused",
        { host: settings.host, reason: coded(`transport.outbound.${error.reason}`) },
        `${settings.host} is not a server the app may connect to (${error.reason}); OUTBOUND_ALLOW can allow it`,
      );
    }
    throw errors.unreachable(unreachableReason((error as { code?: unknown }).code) ?? "host name not found", error);
  }
}
