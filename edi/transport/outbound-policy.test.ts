// The outbound policy (D195): refused hosts are refused after resolution, before any byte
// is sent, in the same words whether something listens or not.
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TransportError } from "./errors";
import { connectTransport } from "./index";
import { addressRange, literalRefusal, outboundPolicy, parseOutboundAllow } from "./outbound-policy";
import type { ConnectionSettings, TransferMechanism } from "./types";

/** A TCP listener that counts connections and says nothing: whatever reaches it is a connection the policy let through. */
let listener: net.Server;
let accepted = 0;
let closedPort: number;

beforeAll(async () => {
  listener = net.createServer((socket) => {
    accepted += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

const openPort = () => (listener.address() as net.AddressInfo).port;

const settings = (mechanism: TransferMechanism, host: string, port: number, fields: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
  mechanism,
  host,
  port,
  user: "acme",
  password: "pw",
  retries: 0,
  timeoutMs: 2_000,
  label: "Acme",
  ...fields,
});

async function refusal(connection: ConnectionSettings): Promise<TransportError> {
  const error = await connectTransport(connection).then(
    async (transport) => {
      await transport.close();
      throw new Error("connected");
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe("addresses", () => {
  it("names the ranges refused by default", () => {
    expect(addressRange("127.0.0.1")).toBe("loopback");
    expect(addressRange("::1")).toBe("loopback");
    expect(addressRange("::ffff:127.0.0.1")).toBe("loopback");
    expect(addressRange("169.254.169.254")).toBe("link-local");
    expect(addressRange("fe80::1")).toBe("link-local");
    for (const address of ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fd12::1"]) expect(addressRange(address)).toBe("private");
    expect(addressRange("0.0.0.0")).toBe("unspecified");
    expect(addressRange("::")).toBe("unspecified");
    expect(addressRange("224.0.0.1")).toBe("multicast");
    expect(addressRange("ff02::1")).toBe("multicast");
    for (const address of ["8.8.8.8", "172.32.0.1", "2001:db8::1"]) expect(addressRange(address)).toBeNull();
  });

  it("reads OUTBOUND_ALLOW as words, addresses and CIDRs, and names what it cannot read", () => {
    expect(parseOutboundAllow("loopback, 10.20.0.0/16,fd00::5")).toEqual({
      ranges: ["loopback"],
      subnets: [
        { address: "10.20.0.0", prefix: 16 },
        { address: "fd00::5", prefix: 128 },
      ],
    });
    expect(parseOutboundAllow("none")).toEqual({ ranges: [], subnets: [] });
    expect(parseOutboundAllow("loopbak, 10.0.0.0/33, example.com")).toEqual({ problems: ["loopbak", "10.0.0.0/33", "example.com"] });
  });

  it("allows a refused range by word or by CIDR, and never the database", () => {
    const policy = outboundPolicy({ allow: "loopback,10.20.0.0/16", databaseUrl: "postgresql://app@127.0.0.1:6543/app" });
    expect(literalRefusal(policy, "127.0.0.1", 22)).toBeNull();
    expect(literalRefusal(policy, "10.20.3.4", 22)).toBeNull();
    expect(literalRefusal(policy, "10.21.3.4", 22)).toBe("private");
    expect(literalRefusal(policy, "169.254.169.254", 80)).toBe("link-local");
    expect(literalRefusal(policy, "127.0.0.1", 6543)).toBe("database");
    expect(literalRefusal(policy, "edi.example.com", 22)).toBeNull();
  });
});

describe.each([1, 2, 3] as const)("connecting, mechanism %i", (mechanism) => {
  afterEach(() => {
    accepted = 0;
  });

  it("refuses loopback, link-local and the database before any byte, in the same words open or closed", async () => {
    const strict = outboundPolicy({ allow: "none" });
    const open = await refusal(settings(mechanism, "127.0.0.1", openPort(), { outbound: strict }));
    const closed = await refusal(settings(mechanism, "127.0.0.1", closedPort, { outbound: strict }));
    expect(open.kind).toBe("protocol");
    expect(open.code).toBe("transport.errors.outbound_refused");
    expect(open.message).toBe("Acme: 127.0.0.1 is not a server the app may connect to (loopback); OUTBOUND_ALLOW can allow it");
    expect(closed.message).toBe(open.message);
    // The parameters differ only in the URL typed (its port), not in what the port answered.
    const { url: openUrl, ...openParams } = open.params;
    const { url: closedUrl, ...closedParams } = closed.params;
    expect([openUrl, closedUrl]).toEqual([expect.stringContaining(`:${openPort()}`), expect.stringContaining(`:${closedPort}`)]);
    expect(closedParams).toEqual(openParams);
    // A name is checked on what it resolves to.
    expect((await refusal(settings(mechanism, "localhost", openPort(), { outbound: strict }))).code).toBe("transport.errors.outbound_refused");
    expect((await refusal(settings(mechanism, "169.254.169.254", 80, { outbound: strict }))).message).toContain("(link-local)");
    // The database's port, even with loopback allowed.
    const database = outboundPolicy({ allow: "loopback", databaseUrl: `postgresql://app@localhost:${openPort()}/app` });
    expect((await refusal(settings(mechanism, "127.0.0.1", openPort(), { outbound: database }))).message).toContain("(database)");
    expect(accepted).toBe(0);
  });

  it("without a policy of its own, follows the process's OUTBOUND_ALLOW", async () => {
    const before = process.env.OUTBOUND_ALLOW;
    delete process.env.OUTBOUND_ALLOW;
    try {
      expect((await refusal(settings(mechanism, "127.0.0.1", openPort()))).code).toBe("transport.errors.outbound_refused");
      expect(accepted).toBe(0);
      process.env.OUTBOUND_ALLOW = "127.0.0.0/8";
      // Allowed: it reaches the listener (which hangs up).
      expect((await refusal(settings(mechanism, "127.0.0.1", openPort()))).code).not.toBe("transport.errors.outbound_refused");
      expect(accepted).toBeGreaterThan(0);
    } finally {
      process.env.OUTBOUND_ALLOW = before;
    }
  });
});
