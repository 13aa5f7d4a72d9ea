// The embedded cluster's password is its own, kept in its folder; and as root,
// a folder the postgres user cannot enter is named before initdb fails on it.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../tests/support/app-server";
import { folderOthersCannotEnter, startEmbeddedPostgres } from "./embedded-postgres.server";

const root = mkdtempSync(path.join(tmpdir(), "embedded-pg-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("embedded PostgreSQL", () => {
  it("gives each new cluster a password of its own, kept in the cluster's folder, and uses it again", async () => {
    const passwords: string[] = [];
    for (const name of ["one", "two"]) {
      const dataDir = path.join(root, name);
      const server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
      try {
        const password = decodeURIComponent(new URL(server.serverUrl).password);
        expect(password).not.toBe("app-local");
        expect(password.length).toBeGreaterThanOrEqual(20);
        expect(readFileSync(path.join(dataDir, "app-password"), "utf8").trim()).toBe(password);
        expect(statSync(path.join(dataDir, "app-password")).mode & 0o077).toBe(0);
        passwords.push(password);
        // A wrong password is refused: the cluster does not trust every local user.
        const wrong = new URL(server.serverUrl);
        wrong.password = "app-local";
        const client = new pg.Client({ connectionString: wrong.toString() });
        await expect(client.connect()).rejects.toThrow(/password authentication failed/);
      } finally {
        await server.stop();
      }
    }
    expect(passwords[0]).not.toBe(passwords[1]);
    // Started again, the cluster is opened with its stored password.
    const again = await startEmbeddedPostgres({ dataDir: path.join(root, "one"), port: await freePort() });
    try {
      const client = new pg.Client({ connectionString: again.serverUrl });
      await client.connect();
      expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await client.end();
      expect(decodeURIComponent(new URL(again.serverUrl).password)).toBe(passwords[0]);
    } finally {
      await again.stop();
    }
  }, 60_000);

  // PostgreSQL refuses to run as root: as root the cluster runs as the postgres user (CI runs as root).
  it.runIf(process.getuid?.() === 0)("as root, refuses a data folder the postgres user cannot reach, with a clear message", async () => {
    const closed = path.join(root, "private");
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    await expect(startEmbeddedPostgres({ dataDir: path.join(closed, "data", "postgres"), port: await freePort() })).rejects.toThrow(
      `PostgreSQL runs as the "postgres" user, which cannot enter ${closed}`,
    );
  });

  it("names the first folder on the way that another user cannot enter", () => {
    const closed = path.join(root, "closed");
    mkdirSync(path.join(closed, "inside"), { recursive: true });
    chmodSync(closed, 0o700);
    const someoneElse = process.getuid!() + 4242;
    expect(folderOthersCannotEnter(path.join(closed, "inside", "postgres"), someoneElse)).toBe(closed);
    // Its owner gets in; and opened for others, nobody is stopped.
    expect(folderOthersCannotEnter(path.join(closed, "inside"), statSync(closed).uid)).toBeNull();
    chmodSync(closed, 0o711);
    expect(folderOthersCannotEnter(path.join(closed, "inside"), someoneElse)).toBeNull();
  });
});
