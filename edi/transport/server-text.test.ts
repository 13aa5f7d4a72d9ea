// A foreign server's words are shown only as a short clean excerpt (D197), and the
// redaction of a password tells no guess (D198).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransportError, TransportErrors } from "./errors";
import { connectTransport } from "./index";
import { redactAround, SERVER_EXCERPT_CHARS, serverExcerpt } from "./server-text";

describe("serverExcerpt", () => {
  it("keeps printable ASCII, names control characters, and cuts at the limit", () => {
    expect(serverExcerpt("Login incorrect.")).toBe("Login incorrect.");
    expect(serverExcerpt("bad\r\nthing\u001b[31m red\u0007 ü")).toBe("bad<CR><LF>thing<ESC>[31m red<0x07> ?");
    const long = serverExcerpt("x".repeat(500));
    expect(long).toHaveLength(SERVER_EXCERPT_CHARS);
    expect(long.endsWith("...")).toBe(true);
    // An excerpt of an excerpt is the same text.
    expect(serverExcerpt(long)).toBe(long);
  });
});

describe("redaction", () => {
  const SECRET = "hunter2";

  it("reads the same whether a folder holds the password or not: no guess can be told", () => {
    const errors = new TransportErrors({ scheme: "sftp", host: "edi.acme.example", port: 22, label: "Acme" }, [SECRET]);
    const guessed = errors.notFound("folder", "/in/hunter2");
    expect(guessed.message).toBe("Acme: Folder /in/hunter2 does not exist on edi.acme.example");
    expect(guessed.params).toMatchObject({ path: "/in/hunter2" });
    // A server that echoes the folder in its refusal: the folder stays as typed there too.
    const refused = errors.refused("listing", "/in/hunter2", "550 /in/hunter2: No such file or directory");
    expect(refused.message).toContain("550 /in/hunter2: No such file");
    expect(refused.params).toMatchObject({ server: "550 /in/hunter2: No such file or directory" });
  });

  it("still hides the password anywhere else", () => {
    expect(redactAround(`login failed for acme:${SECRET}@host, path /in/x`, [SECRET], ["/in/x"])).toBe("login failed for acme:***@host, path /in/x");
    // A short typed value inside the password does not split it into shown pieces.
    expect(redactAround(`pass=${SECRET}`, [SECRET], ["hun", "2"])).toBe("pass=***");
    const errors = new TransportErrors({ scheme: "ftp", host: "h", port: 21 }, [SECRET]);
    expect(errors.refused("writing", "/out", `server said ${SECRET}`).message).toBe("h refused writing /out: server said ***");
  });
});

describe("a server that is not a vendor's", () => {
  let server: net.Server;
  let port = 0;
  const hostile = `\u001b[2J\u001b[31mWelcome to the internal admin console ${"=".repeat(300)}\u0007`;

  beforeAll(async () => {
    // Greets like an FTP server, then answers every command with a long, hostile line.
    server = net.createServer((socket) => {
      socket.write(`220 ${hostile}\r\n`);
      socket.on("data", () => socket.write(`500 ${hostile}\r\n`));
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is quoted in a short clean excerpt, never word for word", async () => {
    const error = await connectTransport({ mechanism: 3, host: "127.0.0.1", port, user: "acme", password: "pw", retries: 0, timeoutMs: 3_000 }).then(
      () => {
        throw new Error("connected");
      },
      (error: unknown) => error as TransportError,
    );
    expect(error).toBeInstanceOf(TransportError);
    const shown = JSON.stringify({ message: error.message, params: error.params });
    expect(shown).not.toContain("\u001b");
    expect(shown).not.toContain("=".repeat(100));
    expect(error.params.server).toMatch(/^<ESC>\[2J<ESC>\[31mWelcome to the internal admin console =+\.\.\.$/);
    expect(String(error.params.server).length).toBeLessThanOrEqual(SERVER_EXCERPT_CHARS);
  });
});
