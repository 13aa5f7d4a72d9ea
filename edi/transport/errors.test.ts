import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { OperationRunner, redact, TransportError, TransportErrors } from "./errors";

const SECRET = "s3cr3t/pw&more";

describe("TransportError", () => {
  it("keeps a library error only as a sanitised, non-enumerable cause", () => {
    // The shape some client libraries throw: the message and a config that both hold the password.
    const libraryError = Object.assign(new Error(`login failed for acme:${SECRET}@host`), {
      code: "ERR_LOGIN",
      level: "client-authentication",
      config: { host: "edi.acme.example", password: SECRET },
    });
    const error = new TransportErrors({ scheme: "sftp", host: "edi.acme.example", port: 22, label: "Acme" }, [SECRET]).auth(libraryError);

    expect(error.kind).toBe("auth");
    expect(error.message).toBe("Acme: Wrong user name or password for sftp://edi.acme.example:22");
    expect(Object.keys(error)).not.toContain("cause");
    const cause = error.cause as Error & { code?: string; level?: string; config?: unknown };
    expect(cause.message).toBe("login failed for acme:***@host");
    expect(cause).toMatchObject({ code: "ERR_LOGIN", level: "client-authentication" });
    expect(cause.config).toBeUndefined();
    for (const text of [
      String(error),
      JSON.stringify(error),
      error.stack ?? "",
      inspect(error, { depth: 5 }),
      String(cause),
      cause.stack ?? "",
      JSON.stringify(cause),
    ]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it("serialises its kind and message for logs", () => {
    const error = new TransportError("not_found", "Folder /inbound does not exist on edi.acme.example");
    expect(JSON.parse(JSON.stringify({ error }))).toEqual({
      error: { name: "TransportError", kind: "not_found", message: "Folder /inbound does not exist on edi.acme.example" },
    });
    expect(error.isConnectionFault).toBe(false);
    expect(new TransportError("timeout", "x").isConnectionFault).toBe(true);
  });

  it("redacts a secret also in its URL-encoded form", () => {
    expect(redact(`ftp://acme:${encodeURIComponent(SECRET)}@host and ${SECRET}`, [SECRET])).toBe("ftp://acme:***@host and ***");
    expect(redact("nothing to hide", [""])).toBe("nothing to hide");
  });
});

describe("OperationRunner", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const timedOut = () => new TransportError("timeout", "no answer");

  it("runs operations one at a time, in call order", async () => {
    const runner = new OperationRunner(1_000);
    const events: string[] = [];
    const operation = (name: string, ms: number) =>
      runner.run(async () => {
        events.push(`start ${name}`);
        await sleep(ms);
        events.push(`end ${name}`);
        return name;
      }, timedOut);
    expect(await Promise.all([operation("a", 30), operation("b", 1), operation("c", 1)])).toEqual(["a", "b", "c"]);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("runs at most inFlight operations at once, starting them in call order", async () => {
    const runner = new OperationRunner(1_000, 3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const operation = (n: number) =>
      runner.run(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await sleep(10 + (n % 3) * 5);
        running--;
        return n;
      }, timedOut);
    expect(await Promise.all(Array.from({ length: 10 }, (_, n) => operation(n)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
    expect(runner.peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("times out silence but not an operation that keeps making progress", async () => {
    const runner = new OperationRunner(80);
    const busy = runner.run(async () => {
      for (let step = 0; step < 6; step++) {
        await sleep(30);
        runner.touch();
      }
      return "done";
    }, timedOut);
    expect(await busy).toBe("done");
    let hung = false;
    await expect(
      runner.run(
        () => new Promise(() => {}),
        () => ((hung = true), timedOut()),
      ),
    ).rejects.toMatchObject({ kind: "timeout" });
    expect(hung).toBe(true);
    // The next operation still runs after a timed-out one.
    expect(await runner.run(async () => "next", timedOut)).toBe("next");
  });
});

describe("FTP server refusals in words", () => {
  const errors = new TransportErrors({ scheme: "ftp", host: "edi.acme.example", port: 21, label: "Acme" }, [SECRET]);

  it("a full disk says so, with the server's words", () => {
    const error = errors.diskFull("writing", "/out", "552 Requested file action aborted: no space left on device.".slice(4));
    expect(error.kind).toBe("protocol");
    expect(error.code).toBe("transport.errors.disk_full");
    expect(error.message).toBe(
      "Acme: The server edi.acme.example has no space left (disk full or quota reached) while writing /out; ask the vendor to free space " +
        "(Requested file action aborted: no space left on device.)",
    );
  });

  it("a server that takes no login in clear asks for FTPS", () => {
    const error = errors.ftpsRequired("Sorry, cleartext sessions and weak ciphers are not accepted on this server.");
    expect(error.code).toBe("transport.errors.ftps_required");
    expect(error.message).toBe(
      "Acme: ftp://edi.acme.example:21 accepts only FTPS (explicit TLS): turn TLS on for this connection " +
        "(Sorry, cleartext sessions and weak ciphers are not accepted on this server.)",
    );
  });
});
