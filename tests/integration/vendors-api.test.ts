// The vendor API over real HTTP to the running app (local mode, own database):
// create, read, update, delete/archive, validation, and the password kept secret.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const PASSWORD = "S3cret-Pa55-vendor!";
const NEW_PASSWORD = "An0ther-Secret-Word";
const suite = useAppWithDatabase("test", { SEED_DEMO_DATA: "0", APP_SECRET_KEY: Buffer.alloc(32, 3).toString("base64") });

const validVendor = (overrides: Record<string, unknown> = {}) => ({
  name: "Acme Outdoor Supply",
  store_id: "DS01",
  enabled: 1,
  test_mode: 0,
  is_legacy: 0,
  transfer_mechanism_id: 1,
  sftp_host: "edi.acme.example.com",
  sftp_port: 22,
  sftp_user: "acme_ops",
  sftp_pass: PASSWORD,
  sftp_incoming_folder: "/outbound",
  sftp_outcoming_folder: "/inbound",
  edi_format: 1,
  edi_identifier: "ACMEEDI",
  edi_qualifier: "01",
  output_delimiter: "*",
  output_segmenter: "~",
  ...VENDOR_DOCUMENT_FLAGS,
  "850_segments": "REF*DP*{vendor_store_id}",
  ...overrides,
});

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  fetch(`${suite.app.url}${path}`, {
    method: init?.method ?? (init?.body ? "POST" : "GET"),
    headers: init?.body !== undefined ? { "content-type": "application/json" } : {},
    body: init?.body !== undefined ? JSON.stringify(init.body) : undefined,
  });

describe("vendor API", () => {
  let id: number;

  it("creates a vendor from JSON and answers it without the password", async () => {
    const response = await api("/api/dropship_vendor", { body: validVendor() });
    expect(response.status).toBe(200);
    const vendor = await response.json();
    id = vendor.id;
    expect(vendor).toMatchObject({
      name: "Acme Outdoor Supply",
      store_id: "DS01",
      "997_enabled": 1,
      "850_segments": "REF*DP*{vendor_store_id}",
      sftp_pass_set: true,
    });
    expect(vendor).not.toHaveProperty("sftp_pass");
    expect(JSON.stringify(vendor)).not.toContain(PASSWORD);
  });

  it("stores the password encrypted (AES-256-GCM), never in clear", async () => {
    const row = await suite.db.vendor.findUniqueOrThrow({ where: { id } });
    expect(row.sftp_pass).toMatch(/^v2:[0-9a-f]{16}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(row.sftp_pass).not.toContain(PASSWORD);
    expect(Buffer.from(row.sftp_pass!.split(":")[4], "base64").toString("latin1")).not.toContain(PASSWORD);
  });

  it("never shows the password in any answer or page", async () => {
    for (const path of [`/api/dropship_vendor/${id}`, "/api/dropship_vendor", "/api/dropship_tools", `/dropship/vendor/edit?id=${id}`, "/dropship/vendor/"]) {
      const text = await (await api(path)).text();
      expect(text, path).not.toContain(PASSWORD);
      expect(text, path).not.toContain((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass);
    }
  });

  it("keeps the stored password when saved empty, replaces it when a new one is given", async () => {
    const before = (await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass;
    const kept = await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor({ name: "Acme Outdoor" }), sftp_pass: "", _method: "PUT" } });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ name: "Acme Outdoor", sftp_pass_set: true });
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass).toBe(before);

    const replaced = await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor(), sftp_pass: NEW_PASSWORD, _method: "PUT" } });
    expect(replaced.status).toBe(200);
    const after = (await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass;
    expect(after).not.toBe(before);
    expect(after).not.toContain(NEW_PASSWORD);
  });

  it("requires the password again when the host, port, user, mechanism or FTPS changes (D64)", async () => {
    const stored = (await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass;
    const put = (overrides: Record<string, unknown>, password = "", query = "") =>
      api(`/api/dropship_vendor/${id}${query}`, { body: { ...validVendor(overrides), sftp_pass: password, _method: "PUT" } });
    for (const [change, label] of [
      [{ sftp_host: "attacker.example.net" }, "Host"],
      [{ sftp_port: 2222 }, "Port"],
      [{ sftp_user: "someone_else" }, "User"],
      [{ transfer_mechanism_id: 2, sftp_port: 22 }, "Transfer Mechanism"],
    ] as const) {
      const refused = await put(change);
      expect(refused.status, label).toBe(422);
      const { errors } = (await refused.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(errors), label).toEqual(["sftp_pass"]);
      expect(errors.sftp_pass[0]).toBe(`Type the password again: ${label} changed, and the stored password is only sent to the server it was given for`);
      // Nothing was saved.
      expect(await suite.db.vendor.findUniqueOrThrow({ where: { id } })).toMatchObject({
        sftp_host: "edi.acme.example.com",
        sftp_port: 22,
        sftp_user: "acme_ops",
        transfer_mechanism_id: 1,
        sftp_pass: stored,
      });
    }
    const several = (await (await put({ sftp_host: "attacker.example.net", sftp_user: "x" })).json()).errors.sftp_pass[0];
    expect(several).toContain("Host, User changed");
    const german = await put({ sftp_host: "attacker.example.net" }, "", "?locale=de");
    expect((await german.json()).errors.sftp_pass[0]).toBe(
      "Geben Sie das Passwort erneut ein: Host wurde geändert, und das gespeicherte Passwort wird nur an den Server gesendet, für den es angegeben wurde",
    );
    const french = await put({ sftp_port: 2022 }, "", "?locale=fr");
    expect((await french.json()).errors.sftp_pass[0]).toMatch(/^Saisissez à nouveau le mot de passe : Port a changé/);

    // The same server written another way is no change: the host's case, a blank port for SFTP's 22.
    expect((await put({ sftp_host: "EDI.Acme.Example.com" })).status).toBe(200);
    expect((await put({ sftp_port: "" })).status).toBe(200);
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass).toBe(stored);
    // FTPS on an FTP vendor is a change too.
    expect((await put({ transfer_mechanism_id: 2, sftp_port: 21 }, NEW_PASSWORD)).status).toBe(200);
    const tls = await put({ transfer_mechanism_id: 2, sftp_port: 21, ftp_tls: 1 });
    expect(tls.status).toBe(422);
    expect((await tls.json()).errors.sftp_pass[0]).toContain("FTPS (Explicit TLS) changed");
    // With the password typed again, the change is saved.
    const moved = await put({ sftp_host: "sftp2.acme.example.com" }, NEW_PASSWORD);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ sftp_host: "sftp2.acme.example.com", transfer_mechanism_id: 1, ftp_tls: 0, sftp_pass_set: true });
    // A vendor without a stored password has none to send elsewhere.
    const bare = (await (await api("/api/dropship_vendor", { body: validVendor({ name: "No Password Co", store_id: "DS09", sftp_pass: "" }) })).json()).id;
    const bareMove = await api(`/api/dropship_vendor/${bare}`, {
      body: { ...validVendor({ name: "No Password Co", store_id: "DS09", sftp_host: "elsewhere.example.com" }), sftp_pass: "", _method: "PUT" },
    });
    expect(bareMove.status).toBe(200);
    await api(`/api/dropship_vendor/${bare}`, { method: "DELETE", body: {} });
  });

  it("unpins the host key when the host, port or mechanism changes, and logs it; a new user keeps it", async () => {
    const key = `SHA256:${Buffer.alloc(32, 1).toString("base64").replace(/=+$/, "")}`;
    await suite.db.vendor.update({ where: { id }, data: { sftp_host_key: key } });
    expect((await (await api(`/api/dropship_vendor/${id}`)).json()).sftp_host_key).toBe(key);
    await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor({ sftp_host: "sftp2.acme.example.com" }), sftp_pass: "", _method: "PUT" } });
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBe(key);
    await api(`/api/dropship_vendor/${id}`, {
      body: { ...validVendor({ sftp_host: "sftp2.acme.example.com", sftp_user: "acme_new" }), sftp_pass: NEW_PASSWORD, _method: "PUT" },
    });
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBe(key);
    for (const change of [{ sftp_host: "sftp3.acme.example.com" }, { sftp_port: 2222 }, { transfer_mechanism_id: 3, sftp_port: 21 }]) {
      await suite.db.vendor.update({ where: { id }, data: { sftp_host_key: key } });
      const saved = await api(`/api/dropship_vendor/${id}`, {
        body: { ...validVendor({ sftp_user: "acme_new", ...change }), sftp_pass: NEW_PASSWORD, _method: "PUT" },
      });
      expect(saved.status).toBe(200);
      expect((await saved.json()).sftp_host_key).toBeNull();
    }
    const logs = await suite.db.dropshipLog.findMany({ where: { vendor_id: id, action: "host_key_reset" } });
    expect(logs).toHaveLength(3);
    expect(logs[0].message).toBe(
      `Host key ${key} unpinned: the host, port or transfer mechanism changed. The next connection trusts and pins the key it sees.`,
    );
    await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor(), sftp_pass: NEW_PASSWORD, _method: "PUT" } });
  });

  it("shows the pinned fingerprint, resets it and pins one staff typed, each logged (D64)", async () => {
    const seen = `SHA256:${Buffer.alloc(32, 2).toString("base64").replace(/=+$/, "")}`;
    const typed = `SHA256:${Buffer.alloc(32, 5).toString("base64").replace(/=+$/, "")}`;
    await suite.db.vendor.update({ where: { id }, data: { sftp_host_key: seen } });
    const hostKey = (body: unknown, query = "") => api(`/api/dropship_vendor/${id}/host_key${query}`, { body });
    expect(await (await api(`/api/dropship_vendor/${id}`)).json()).toMatchObject({ sftp_host_key: seen });
    expect(await (await api(`/dropship/vendor/edit?id=${id}`)).text()).toContain(seen);

    const reset = await hostKey({ action: "reset" });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({ id, sftp_host_key: null });
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBeNull();

    for (const bad of ["SHA256:short", "MD5:aa:bb", `SHA256:${Buffer.alloc(31, 5).toString("base64")}`, `${typed}x`, ""]) {
      const refused = await hostKey({ action: "pin", fingerprint: bad });
      expect(refused.status, bad).toBe(422);
      expect((await refused.json()).errors.fingerprint[0]).toBe(
        "The fingerprint must be SHA256: followed by the base64 of 32 bytes (43 characters), as ssh-keygen -lf prints it",
      );
    }
    expect((await (await hostKey({ action: "pin", fingerprint: "nope" }, "?locale=fr")).json()).errors.fingerprint[0]).toMatch(
      /^L'empreinte doit être SHA256:/,
    );
    expect((await hostKey({ action: "forget" })).status).toBe(422);
    expect((await api(`/api/dropship_vendor/${id}/host_key`)).status).toBe(405);

    const pinned = await hostKey({ action: "pin", fingerprint: ` ${typed}= ` });
    expect(pinned.status).toBe(200);
    expect(await pinned.json()).toMatchObject({ sftp_host_key: typed });
    expect((await suite.db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBe(typed);

    const logs = await suite.db.dropshipLog.findMany({
      where: { vendor_id: id, action: { in: ["host_key_reset", "host_key_pinned"] } },
      orderBy: { id: "desc" },
      take: 2,
    });
    expect(logs.map((log) => [log.action, log.message])).toEqual([
      ["host_key_pinned", `Host key ${typed} pinned by staff: a server showing another key is refused.`],
      ["host_key_reset", `Host key ${seen} unpinned by staff. The next connection trusts and pins the key it sees.`],
    ]);
    // A plain FTP vendor has nothing to pin; an FTPS one pins its certificate, typed as OpenSSL prints it too (D62).
    const ftp = (
      await (await api("/api/dropship_vendor", { body: validVendor({ name: "FTP Co", store_id: "DS08", transfer_mechanism_id: 2, sftp_port: 21 }) })).json()
    ).id;
    const notSftp = await api(`/api/dropship_vendor/${ftp}/host_key`, { body: { action: "pin", fingerprint: typed } });
    expect((await notSftp.json()).errors.fingerprint[0]).toBe("Only SFTP and FTPS servers have a key to pin: this vendor uses FTP without TLS");
    await api(`/api/dropship_vendor/${ftp}`, { method: "DELETE", body: {} });
    const ftps = (
      await (
        await api("/api/dropship_vendor", { body: validVendor({ name: "FTPS Co", store_id: "DS09", transfer_mechanism_id: 3, sftp_port: 21, ftp_tls: 1 }) })
      ).json()
    ).id;
    const hex = Buffer.from(typed.slice("SHA256:".length), "base64").toString("hex").toUpperCase().match(/../g)!.join(":");
    const certificate = await api(`/api/dropship_vendor/${ftps}/host_key`, { body: { action: "pin", fingerprint: hex } });
    expect(certificate.status).toBe(200);
    expect(await certificate.json()).toMatchObject({ sftp_host_key: typed });
    await suite.db.dropshipLog.deleteMany({ where: { vendor_id: ftps } });
    await api(`/api/dropship_vendor/${ftps}`, { method: "DELETE", body: {} });
    // Log lines are history (a vendor with some is archived, not deleted): the delete test below wants this vendor without.
    await suite.db.dropshipLog.deleteMany({ where: { vendor_id: id } });
  });

  it("takes FTPS for FTP vendors only, and the minimum file age as a whole number of seconds", async () => {
    const created = await (await api("/api/dropship_vendor", { body: validVendor({ name: "Defaults Co", store_id: "DS07" }) })).json();
    expect(created).toMatchObject({ ftp_tls: 0, incoming_min_age_seconds: 60, incoming_max_wait_minutes: 60 });
    const sftpTls = await api("/api/dropship_vendor", { body: validVendor({ name: "TLS Co", store_id: "DS06", ftp_tls: 1 }) });
    expect(sftpTls.status).toBe(422);
    expect((await sftpTls.json()).errors).toEqual({ ftp_tls: ["FTPS (Explicit TLS) is for FTP and Passive FTP only: SFTP is already encrypted"] });
    for (const mechanism of [2, 3]) {
      const ftps = await api(`/api/dropship_vendor/${created.id}`, {
        body: {
          ...validVendor({ name: "Defaults Co", store_id: "DS07", transfer_mechanism_id: mechanism, sftp_port: 21, ftp_tls: 1, incoming_min_age_seconds: 0 }),
          _method: "PUT",
        },
      });
      expect(ftps.status).toBe(200);
      expect(await ftps.json()).toMatchObject({ transfer_mechanism_id: mechanism, ftp_tls: 1, incoming_min_age_seconds: 0 });
    }
    expect(await suite.db.vendor.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ ftp_tls: 1, incoming_min_age_seconds: 0 });
    const max = await api(`/api/dropship_vendor/${created.id}`, {
      body: { ...validVendor({ name: "Defaults Co", store_id: "DS07", incoming_min_age_seconds: "86400" }), _method: "PUT" },
    });
    expect(await max.json()).toMatchObject({ ftp_tls: 0, incoming_min_age_seconds: 86400 });
    for (const bad of [-1, 86401, "abc", 1.5, "1e3"]) {
      const refused = await api("/api/dropship_vendor", { body: validVendor({ name: "Age Co", store_id: "DS06", incoming_min_age_seconds: bad }) });
      expect(refused.status, String(bad)).toBe(422);
      expect((await refused.json()).errors.incoming_min_age_seconds).toEqual(["Minimum File Age (Seconds) must be a whole number from 0 to 86400"]);
    }
    const german = await api("/api/dropship_vendor?locale=de", {
      body: validVendor({ name: "TLS Co", store_id: "DS06", ftp_tls: 1, incoming_min_age_seconds: -5 }),
    });
    expect((await german.json()).errors).toEqual({
      ftp_tls: ["FTPS (explizites TLS) gilt nur für FTP und passives FTP: SFTP ist bereits verschlüsselt"],
      incoming_min_age_seconds: ["Mindestalter der Dateien (Sekunden) muss eine ganze Zahl von 0 bis 86400 sein"],
    });
    await api(`/api/dropship_vendor/${created.id}`, { method: "DELETE", body: {} });
  });

  it("takes the EDI strictness as lenient (the default) or strict, nothing else (D219)", async () => {
    const created = await (await api("/api/dropship_vendor", { body: validVendor({ name: "Strict Co", store_id: "DS08" }) })).json();
    expect(created).toMatchObject({ edi_strictness: "lenient" });
    const strict = await api(`/api/dropship_vendor/${created.id}`, {
      body: { ...validVendor({ name: "Strict Co", store_id: "DS08", edi_strictness: "strict" }), _method: "PUT" },
    });
    expect(await strict.json()).toMatchObject({ edi_strictness: "strict" });
    expect(await suite.db.vendor.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ edi_strictness: "strict" });
    const refused = await api("/api/dropship_vendor", { body: validVendor({ name: "Loose Co", store_id: "DS09", edi_strictness: "sloppy" }) });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual({ edi_strictness: ["EDI Strictness must be one of lenient, strict"] });
    const french = await api("/api/dropship_vendor?locale=fr", { body: validVendor({ name: "Loose Co", store_id: "DS09", edi_strictness: "STRICT" }) });
    expect((await french.json()).errors).toEqual({ edi_strictness: ["Rigueur EDI doit être l'une de ces valeurs : lenient, strict"] });
    await api(`/api/dropship_vendor/${created.id}`, { method: "DELETE", body: {} });
  });

  it("takes the cancellation format and whether the vendor answers cancellations; a format its EDI format cannot carry is a 422 (D230)", async () => {
    const created = await (await api("/api/dropship_vendor", { body: validVendor({ name: "Cancel Co", store_id: "DS10" }) })).json();
    // Blank: the default for the EDI format (null); a vendor answers cancellations unless told otherwise.
    expect(created).toMatchObject({ cancellation_format: null, answers_cancellations: 1 });
    const put = (overrides: Record<string, unknown>, locale = "") =>
      api(`/api/dropship_vendor/${created.id}${locale}`, { body: { ...validVendor({ name: "Cancel Co", store_id: "DS10", ...overrides }), _method: "PUT" } });
    for (const format of ["850", "860"]) {
      const saved = await put({ cancellation_format: format, answers_cancellations: 0 });
      expect(saved.status).toBe(200);
      expect(await saved.json()).toMatchObject({ cancellation_format: format, answers_cancellations: 0 });
      expect(await suite.db.vendor.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ cancellation_format: format, answers_cancellations: 0 });
    }
    // Loaded as saved: the form's GET.
    expect(await (await api(`/api/dropship_vendor/${created.id}`)).json()).toMatchObject({ cancellation_format: "860", answers_cancellations: 0 });
    // Blank again is the default; a blank answers_cancellations is Yes.
    const blank = await put({ cancellation_format: "", answers_cancellations: "" });
    expect(await blank.json()).toMatchObject({ cancellation_format: null, answers_cancellations: 1 });

    const csvForX12 = await put({ cancellation_format: "csv" });
    expect(csvForX12.status).toBe(422);
    expect((await csvForX12.json()).errors).toEqual({
      cancellation_format: ["Cancellation Format: the cancellation CSV is for CSV vendors; an EDI vendor takes the X12 860 or 850"],
    });
    const x12ForCsv = await put({ edi_format: 0, cancellation_format: "850" }, "?locale=de");
    expect(x12ForCsv.status).toBe(422);
    expect((await x12ForCsv.json()).errors).toEqual({
      cancellation_format: ["Stornoformat: X12 860 und 850 sind für EDI-Lieferanten; ein CSV-Lieferant nimmt die Storno-CSV"],
    });
    const csv = await put({ edi_format: 0, cancellation_format: "csv" });
    expect(csv.status).toBe(200);
    expect(await csv.json()).toMatchObject({ edi_format: 0, cancellation_format: "csv" });
    const unknown = await put({ cancellation_format: "fax", answers_cancellations: "maybe" }, "?locale=fr");
    expect(unknown.status).toBe(422);
    expect(Object.keys((await unknown.json()).errors).sort()).toEqual(["answers_cancellations", "cancellation_format"]);
    // Nothing of a refused save was written.
    const stored = await suite.db.vendor.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored).toMatchObject({ edi_format: 0, cancellation_format: "csv", answers_cancellations: 1 });
    await api(`/api/dropship_vendor/${created.id}`, { method: "DELETE", body: {} });
  });

  it("refuses regular expressions that can backtrack catastrophically, invalid ones and over-long ones (D65)", async () => {
    const refused = await api("/api/dropship_vendor", {
      body: validVendor({
        name: "Regex Co",
        store_id: "DS06",
        regex_format: "^(\\w+\\s?)*$",
        "856_file_contents_regex": "(a+)+$",
        "810_file_contents_regex": "x".repeat(501),
        "846_file_contents_regex": "(?<=BIA)\\*",
        "997_file_contents_regex": "AK1*(",
      }),
    });
    expect(refused.status).toBe(422);
    const { errors } = (await refused.json()) as { errors: Record<string, string[]> };
    expect(errors).toEqual({
      regex_format: [
        "File Name Pattern could take too long on some files (nested repetition such as (a+)+, " +
          "or a construction that cannot be checked, such as lookbehind): write it without them",
      ],
      "856_file_contents_regex": [
        "856 File Contents Regex could take too long on some files (nested repetition such as " +
          "(a+)+, or a construction that cannot be checked, such as lookbehind): write it without them",
      ],
      "810_file_contents_regex": ["810 File Contents Regex must be at most 500 characters"],
      "846_file_contents_regex": [expect.stringContaining("846 File Contents Regex could take too long")],
      "997_file_contents_regex": [expect.stringMatching(/^997 File Contents Regex is not a valid regular expression: Invalid regular expression/)],
    });
    const french = await api("/api/dropship_vendor?locale=fr", { body: validVendor({ name: "Regex Co", store_id: "DS06", regex_format: "(a+)+$" }) });
    expect((await french.json()).errors.regex_format[0]).toContain("pourrait prendre trop de temps sur certains fichiers");
    expect(await suite.db.vendor.count({ where: { name: "Regex Co" } })).toBe(0);
    // Ordinary patterns save, as typed.
    const fine = await api("/api/dropship_vendor", {
      body: validVendor({ name: "Regex Co", store_id: "DS06", regex_format: "^(855|856)_.*\\.edi$", "856_file_contents_regex": "ST\\*856" }),
    });
    expect(fine.status).toBe(200);
    expect(await fine.json()).toMatchObject({ regex_format: "^(855|856)_.*\\.edi$", "856_file_contents_regex": "ST\\*856" });
    await api(`/api/dropship_vendor/${(await suite.db.vendor.findFirstOrThrow({ where: { name: "Regex Co" } })).id}`, { method: "DELETE", body: {} });
  });

  it("answers 422 with every bad field, first message readable", async () => {
    const response = await api("/api/dropship_vendor", {
      body: validVendor({
        name: "",
        enabled: "maybe",
        transfer_mechanism_id: 4,
        sftp_port: 70000,
        sftp_host: "bad host!",
        sftp_incoming_folder: "../../etc",
        input_delimiter: "ab",
        output_segmenter: "A",
        regex_format: "([",
        "856_file_contents_regex": "*x",
        "850_segments": "GS*PO*X\nREF*DP*{nope}",
        edi_qualifier: "TOOLONG",
        "850_format": "4010",
      }),
    });
    expect(response.status).toBe(422);
    const { errors } = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual(
      [
        "850_format",
        "850_segments",
        "856_file_contents_regex",
        "edi_qualifier",
        "enabled",
        "input_delimiter",
        "name",
        "output_segmenter",
        "regex_format",
        "sftp_host",
        "sftp_incoming_folder",
        "sftp_port",
        "transfer_mechanism_id",
      ].sort(),
    );
    expect(errors.name[0]).toBe("Name is required");
    expect(errors.sftp_port[0]).toBe("Port must be a port number from 1 to 65535");
    expect(errors.transfer_mechanism_id[0]).toBe("Transfer Mechanism must be 1 (SFTP), 2 (FTP) or 3 (Passive FTP)");
    expect(errors["850_segments"]).toEqual([expect.stringContaining("GS is written by the envelope"), expect.stringContaining("unknown placeholder {nope}")]);
    expect(errors.regex_format[0]).toContain("is not a valid regular expression");
    expect(await suite.db.vendor.count({ where: { name: "" } })).toBe(0);
  });

  it("says what is wrong with the EDI profile in the reader's language (D117)", async () => {
    const body = validVendor({ name: "Profil Co", store_id: "DS07", "850_segments": "GS*PO*X\nREF*DP*{nope}\nN1*ST*{po_number", "850_format": "4010" });
    const german = await api("/api/dropship_vendor?locale=de", { body });
    expect(german.status).toBe(422);
    const { errors } = (await german.json()) as { errors: Record<string, string[]> };
    expect(errors["850_segments"]).toEqual([
      "850-Segmente: Zeile 1: GS schreibt der Umschlag, nicht eine Vorlage",
      expect.stringMatching(/^850-Segmente: Zeile 2: unbekannter Platzhalter \{nope\} \(erlaubt: \{po_number\}, /),
      "850-Segmente: Zeile 3: geschweifte Klammern nicht ausgeglichen",
    ]);
    expect(errors["850_format"]).toEqual(["850-Format: eine X12-Version wie 004010 oder 004010VICS ist erforderlich"]);
    const french = (await (await api("/api/dropship_vendor?locale=fr", { body })).json()) as { errors: Record<string, string[]> };
    expect(french.errors["850_format"]).toEqual(["Format 850 : une version X12 comme 004010 ou 004010VICS est requise"]);
    const english = (await (await api("/api/dropship_vendor", { body })).json()) as { errors: Record<string, string[]> };
    expect(english.errors["850_segments"][0]).toBe("850 Segments line 1: GS is written by the envelope, not by a template");
    expect(await suite.db.vendor.count({ where: { name: "Profil Co" } })).toBe(0);
  });

  it("refuses outgoing delimiters the reader would refuse (D72), translated", async () => {
    const same = await api("/api/dropship_vendor", { body: validVendor({ name: "Clash Co", output_delimiter: "|", output_segmenter: "|" }) });
    expect(same.status).toBe(422);
    const sameErrors = ((await same.json()) as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(sameErrors)).toEqual(["output_segmenter"]);
    expect(sameErrors.output_segmenter[0]).toContain("must be two different characters");
    const lineBreak = await api("/api/dropship_vendor", { body: validVendor({ name: "Clash Co", output_delimiter: "\\n", output_segmenter: "~" }) });
    expect(lineBreak.status).toBe(422);
    const lineErrors = ((await lineBreak.json()) as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(lineErrors)).toEqual(["output_delimiter"]);
    expect(lineErrors.output_delimiter[0]).toContain("cannot be a line break");
    // ">" and "^" as the vendor's own delimiters are fine: our component and repetition separators move aside.
    const caret = await api("/api/dropship_vendor", { body: validVendor({ name: "Caret Co", output_delimiter: "^", output_segmenter: ">" }) });
    expect(caret.status).toBe(200);
    expect(await suite.db.vendor.count({ where: { name: "Clash Co" } })).toBe(0);
    await api(`/api/dropship_vendor/${(await suite.db.vendor.findFirstOrThrow({ where: { name: "Caret Co" } })).id}`, { method: "DELETE", body: {} });
  });

  it("answers bad requests with clear errors, not 500s", async () => {
    const notJson = await fetch(`${suite.app.url}/api/dropship_vendor`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(422);
    expect((await api("/api/dropship_vendor/999999")).status).toBe(404);
    expect((await api("/api/dropship_vendor/abc")).status).toBe(404);
    expect((await api("/api/dropship_vendor?sort=nope")).status).toBe(422);
  });

  it("lists vendors with filters and the spec's flat answer", async () => {
    await api("/api/dropship_vendor", {
      body: validVendor({ name: "Brightline Footwear", store_id: "DS02", test_mode: 1, test_identifier: "BRIGHTTEST", test_qualifier: "ZZ" }),
    });
    await api("/api/dropship_vendor", { body: validVendor({ name: "Cascade Apparel", store_id: "DS03", enabled: 0 }) });
    const all = await (await api("/api/dropship_vendor")).json();
    expect(all).toMatchObject({ total: 3, last_page: 1, current_page: 1 });
    expect(all.data.map((v: { id: number }) => v.id)).toEqual([...all.data.map((v: { id: number }) => v.id)].sort((a: number, b: number) => a - b));
    expect((await (await api("/api/dropship_vendor?enabled=0")).json()).data.map((v: { name: string }) => v.name)).toEqual(["Cascade Apparel"]);
    expect((await (await api("/api/dropship_vendor?test_mode=1")).json()).data.map((v: { name: string }) => v.name)).toEqual(["Brightline Footwear"]);
    expect((await (await api("/api/dropship_vendor?name=bright")).json()).total).toBe(1);
    expect((await (await api("/api/dropship_vendor?query_value=cascade")).json()).total).toBe(1);
    expect((await (await api("/api/dropship_vendor?enabled=2")).json()).errors.enabled[0]).toContain("is not one of");
  });

  it("refuses to delete a vendor with open requests, archives one with history, deletes one without", async () => {
    const withOpen = (await (await api("/api/dropship_vendor", { body: validVendor({ name: "Open Requests Co", store_id: "DS04" }) })).json()).id;
    const withHistory = (await (await api("/api/dropship_vendor", { body: validVendor({ name: "History Co", store_id: "DS05" }) })).json()).id;
    const order = await suite.db.order.create({
      data: { order_id: "100000001", items: { create: { sku: "SKU-1", name: "Thing", qty_ordered: 1 } } },
      include: { items: true },
    });
    // One assignment per request (a request carries its assignment's PO).
    const assignmentFor = (storeId: string) =>
      suite.db.assignment.create({
        data: { order_increment_id: "100000001", item_id: order.items[0].item_id, product_sku: "SKU-1", qty_assigned: 1, store_id: storeId },
      });
    const request = async (vendorId: number, status: string) => ({
      vendor_id: vendorId,
      vendor_name: "x",
      assignment_id: (await assignmentFor(vendorId === withOpen ? "DS04" : "DS05")).id,
      po_number: `PO-${vendorId}`,
      order_increment_id: "100000001",
      item_sku: "SKU-1",
      qty: 1,
      ship_name_first: "Jane",
      ship_name_last: "Doe",
      ship_address: "1 Main St",
      ship_city: "Chicago",
      ship_state: "IL",
      ship_zip: "60601",
      country_id: "US",
      status,
    });
    await suite.db.dropshipRequest.create({ data: await request(withOpen, "sent") });
    await suite.db.dropshipRequest.create({ data: await request(withHistory, "completed") });

    const refused = await api(`/api/dropship_vendor/${withOpen}`, { method: "DELETE", body: {} });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.vendor[0]).toBe("Open Requests Co has 1 open drop-ship requests: complete or revise them before deleting the vendor");

    const archived = await api(`/api/dropship_vendor/${withHistory}`, { method: "DELETE", body: {} });
    expect(await archived.json()).toEqual({
      error: false,
      deleted: false,
      archived: true,
      message: "Vendor History Co archived: it has drop-ship history, which is kept. It is no longer listed, offered for assignment or run.",
    });
    expect(await suite.db.dropshipRequest.count({ where: { vendor_id: withHistory } })).toBe(1); // nothing lost
    expect((await (await api("/api/dropship_vendor?name=History")).json()).total).toBe(0);
    expect((await (await api("/api/dropship_tools")).json()).map((v: { name: string }) => v.name)).not.toContain("History Co");

    const deleted = await api(`/api/dropship_vendor/${id}`, { method: "DELETE", body: {} });
    expect(await deleted.json()).toEqual({ error: false, deleted: true, archived: false, message: "Vendor deleted successfully" });
    expect((await api(`/api/dropship_vendor/${id}`)).status).toBe(404);
  });

  it("lists the Tools page's vendors as id and name", async () => {
    const tools = await (await api("/api/dropship_tools")).json();
    expect(tools.length).toBeGreaterThan(0);
    // test_mode besides: the page turns off the made-up-file actions for vendors not in test mode (D66).
    for (const vendor of tools) expect(Object.keys(vendor).sort()).toEqual(["id", "name", "test_mode"]);
  });

  it("never wrote the password to the server's output", () => {
    expect(suite.app.output()).not.toContain(PASSWORD);
    expect(suite.app.output()).not.toContain(NEW_PASSWORD);
  });
});
