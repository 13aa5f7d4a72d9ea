// Errors shown in banners, in the reader's language (D117): real failing
// connections against the loopback SFTP and FTP servers, a stored password that
// cannot be decrypted and a path typed by staff, rendered in German and French;
// and every transport message's English rendering is the English message logs keep.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { populateShipResponses } from "~/dropship/flow/populate-responses.server";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { decryptSecret, SecretError } from "~/lib/secrets.server";
import { startFtpServer, type FtpTestServer } from "../../tests/support/ftp-server";
import { TransportError, TransportErrors } from "@edi/transport";
import { connectTransport, withTransport } from "@edi/transport";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { resolveInside } from "@edi/transport";
import { tradingProfile, type VendorEdiFields } from "@edi/vendor-profile";
import { delimiterIssues } from "@edi/x12";
import type { ConnectionSettings } from "@edi/transport";
import { errorRunMessage } from "./error-messages.server";
import { joined, message, renderMessage } from "./messages";

const PASSWORD = "pw-i18n-errors-Xy9!";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;
let en: Translate;
let de: Translate;
let fr: Translate;

const render = (t: Translate, language: string, error: unknown) => renderMessage(t, language, errorRunMessage(error));

async function failure(
  settings: ConnectionSettings,
  work: (transport: Awaited<ReturnType<typeof connectTransport>>) => Promise<unknown> = async () => undefined,
): Promise<TransportError> {
  try {
    await withTransport(settings, work);
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error("expected a transport error");
}

/** A loopback port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "i18n-errors-"));
  mkdirSync(path.join(root, "in"));
  sftp = await startSftpServer({ root, users: { acme: PASSWORD } });
  ftp = await startFtpServer({ root, users: { acme: PASSWORD } });
  [en, de, fr] = await Promise.all(["en", "de", "fr"].map((language) => i18nServer.getFixedT(language, "common")));
});

afterAll(async () => {
  await sftp?.stop();
  await ftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Acme Supply's account on one of the two servers, without retries. */
const settings = (mechanism: 1 | 3, server: { host: string; port: number }, overrides: Partial<ConnectionSettings>) =>
  ({
    mechanism,
    host: server.host,
    port: server.port,
    user: "acme",
    password: PASSWORD,
    label: "Acme Supply",
    timeoutMs: 5_000,
    retries: 0,
    ...overrides,
  }) as ConnectionSettings;

const sftpSettings = (overrides: Partial<ConnectionSettings> = {}) => settings(1, sftp, overrides);

const ftpSettings = (overrides: Partial<ConnectionSettings> = {}) => settings(3, ftp, overrides);

describe("transport errors in the reader's language", () => {
  it("a wrong SFTP password, in German and French, with the vendor's name first; English is the logged message", async () => {
    const error = await failure(sftpSettings({ password: "not-the-password" }));
    expect(error.kind).toBe("auth");
    expect(error.code).toBe("transport.errors.auth");
    expect(render(de, "de", error)).toBe(`Acme Supply: Falscher Benutzername oder falsches Passwort für sftp://127.0.0.1:${sftp.port}`);
    expect(render(fr, "fr", error)).toBe(`Acme Supply : Nom d'utilisateur ou mot de passe incorrect pour sftp://127.0.0.1:${sftp.port}`);
    expect(render(en, "en", error)).toBe(error.message);
  });

  it("an unreachable server: the reason is translated too", async () => {
    const port = await closedPort();
    const error = await failure(sftpSettings({ port }));
    expect(error.kind).toBe("unreachable");
    expect(render(de, "de", error)).toBe(`Acme Supply: 127.0.0.1:${port} ist nicht erreichbar (Verbindung abgelehnt)`);
    expect(render(en, "en", error)).toBe(error.message);
  });

  it("a missing folder over SFTP and a wrong FTP password", async () => {
    const missing = await failure(sftpSettings(), (transport) => transport.list("/nowhere"));
    expect(missing.kind).toBe("not_found");
    expect(render(de, "de", missing)).toBe("Acme Supply: Der Ordner /nowhere existiert auf 127.0.0.1 nicht");
    expect(render(en, "en", missing)).toBe(missing.message);

    const wrong = await failure(ftpSettings({ password: "not-the-password" }));
    expect(wrong.kind).toBe("auth");
    expect(render(de, "de", wrong)).toBe(`Acme Supply: Falscher Benutzername oder falsches Passwort für ftp://127.0.0.1:${ftp.port}`);
    expect(render(en, "en", wrong)).toBe(wrong.message);
  });

  it("a server's own words stay as they are inside the translated frame, and secrets stay out of the parameters", () => {
    const errors = new TransportErrors({ scheme: "ftp", host: "edi.acme.example", port: 21 }, [PASSWORD]);
    const error = errors.refused("renaming", "/out/a.edi", `550 Rename failed for ${PASSWORD}`);
    expect(render(de, "de", error)).toBe("edi.acme.example hat das Umbenennen von /out/a.edi abgelehnt: 550 Rename failed for ***");
    expect(JSON.stringify(error.params)).not.toContain(PASSWORD);
  });

  it("every transport message renders in English as its logged message, and in German and French with every value filled", () => {
    const errors = new TransportErrors({ scheme: "sftp", host: "edi.acme.example", port: 22, label: "AS400" }, []);
    const all: TransportError[] = [
      errors.auth(),
      errors.unreachable("host name not found"),
      errors.connectTimeout(1500),
      errors.connectTimeout(400),
      errors.operationTimeout(20_000, "listing", "/in"),
      errors.hostKeyChanged("SHA256:old", "SHA256:new"),
      errors.notFound("folder", "/in"),
      errors.notFound("file", "/in/a.edi"),
      errors.notFound("path", "/in/x"),
      errors.permission("writing", "/out"),
      errors.incompleteDownload("/in/a.edi", 10, 20),
      errors.incompleteDownload("/in/a.edi", 30, 20),
      errors.tooLarge("/in/big.edi", 150 * 1024 * 1024, 100 * 1024 * 1024),
      errors.tooLarge("/in/big.edi", 50, 100 * 1024 * 1024),
      errors.incompleteUpload("/out/a.edi", 5, 9),
      errors.connectionLost(),
      errors.connectionLost("connecting"),
      errors.connectionLost("reading", "/in/a.edi"),
      errors.closed(),
      errors.notPinned("host key", "SHA256:k"),
      errors.notPinned("TLS certificate", "SHA256:c"),
      errors.certificateChanged("SHA256:a", "SHA256:b"),
      errors.dataModeRefused("active", "listing", "/in", "PORT: 500 Illegal PORT command"),
      errors.dataModeRefused("passive", "listing", "/in", "PASV: 550 Permission denied."),
      errors.dataConnectionFailed("active", "listing", "/in", "425 Can't open data connection"),
      errors.dataConnectionFailed("passive", "listing", "/in", undefined),
      errors.protocol("no_certificate", {}, `${errors.url} sent no TLS certificate`),
      errors.protocol("no_ftps", { server: "Unknown command" }, `${errors.url} does not offer FTPS (explicit TLS): AUTH TLS was refused (Unknown command)`),
      errors.protocol("tls_handshake", { reason: "wrong version number" }, `The TLS handshake with ${errors.url} failed: wrong version number`),
      errors.protocol("prot_refused", { server: "No" }, `${errors.url} refused to encrypt data connections (PROT P): No`),
      errors.protocol(
        "ftps_required",
        { server: "Non-anonymous sessions must use encryption." },
        `${errors.url} accepts only FTPS (explicit TLS): turn TLS on for this connection (Non-anonymous sessions must use encryption.)`,
      ),
      errors.protocol("login_refused_saying", { server: "Go away" }, `Could not log in to ${errors.url}: Go away`),
      errors.protocol("login_refused", {}, `Could not log in to ${errors.url}: refused`),
      errors.protocol("no_ftp_session", {}, `Could not open an FTP session with ${errors.url}`),
      errors.protocol("no_sftp_session", {}, `Could not open an SFTP session with ${errors.url}`),
      errors.notAFile("/in"),
      errors.notAFolder("/in/a.edi"),
      errors.fileInTheWay("/in/archive"),
      errors.diskFull("writing", "/out", "552 Requested file action aborted: no space left on device."),
      errors.diskFull("writing", "/out", undefined),
      errors.ftpsRequired("Sorry, cleartext sessions and weak ciphers are not accepted on this server."),
      errors.refused("deleting", "/in/a.edi", undefined),
      errors.refused("archiving", "/in/a.edi", "553 No"),
    ];
    for (const error of all) {
      expect(render(en, "en", error), error.code ?? "").toBe(error.message);
      for (const [t, language] of [
        [de, "de"],
        [fr, "fr"],
      ] as const) {
        const text = render(t, language, error);
        expect(text, `${language} ${error.code}`).not.toMatch(/\{\{|transport\.|undefined/);
        expect(text, `${language} ${error.code}`).not.toBe(error.message);
      }
    }
    // Numbers in the reader's form.
    expect(render(de, "de", errors.connectTimeout(1500))).toBe("AS400: edi.acme.example:22 hat nicht innerhalb von 1,5 s geantwortet (beim Verbinden)");
    expect(render(fr, "fr", errors.tooLarge("/in/big.edi", 150 * 1024 * 1024, 100 * 1024 * 1024))).toContain("150,0 MB");
  });
});

describe("secret and path errors in the reader's language", () => {
  it("a stored password that cannot be read", () => {
    let caught: unknown;
    try {
      decryptSecret("not-a-secret", "vendor:1:sftp_pass");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretError);
    expect(render(de, "de", caught)).toBe("Das gespeicherte Geheimnis hat nicht die erwartete Form; geben Sie das Passwort erneut ein.");
    expect(render(en, "en", caught)).toBe((caught as Error).message);
    let undecryptable: unknown;
    try {
      decryptSecret("v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA", "vendor:1:sftp_pass");
    } catch (error) {
      undecryptable = error;
    }
    expect(render(fr, "fr", undecryptable)).toBe(
      "Le mot de passe enregistré ne peut pas être déchiffré avec cette APP_SECRET_KEY ; saisissez à nouveau le mot de passe.",
    );
  });

  it("a path typed by staff that would leave its folder", () => {
    let caught: unknown;
    try {
      resolveInside("/in", "../etc/passwd");
    } catch (error) {
      caught = error;
    }
    expect(render(de, "de", caught)).toBe('Der Pfad "../etc/passwd" ist nicht erlaubt: er enthält "..", womit er /in verlassen könnte');
    expect(render(en, "en", caught)).toBe((caught as Error).message);
  });
});

describe("EDI profile problems in the reader's language", () => {
  const vendor = (overrides: Partial<VendorEdiFields> = {}): VendorEdiFields =>
    ({ id: 1, name: "Acme", edi_format: 1, edi_identifier: "ACME", edi_qualifier: "ZZ", ...overrides }) as VendorEdiFields;

  it("every problem of a vendor's profile renders in English as the English problem, and in German and French", () => {
    const { errors, problems } = tradingProfile(
      vendor({
        edi_identifier: null,
        edi_qualifier: "ZZZ",
        output_delimiter: "|",
        output_segmenter: "|",
        regex_format: "([",
        "850_segments": "GS*PO*X\nrEF*1\nREF*DP*{nope}\nN1*ST*{po_number",
        "850_format": "4010",
      } as Partial<VendorEdiFields>),
      { qualifier: "ZZ", id: "US" },
    );
    expect(Object.keys(problems).sort()).toEqual(Object.keys(errors).sort());
    expect(Object.keys(errors).sort()).toEqual(["850_format", "850_segments", "edi_identifier", "edi_qualifier", "output_segmenter", "regex_format"]);
    for (const [field, list] of Object.entries(problems)) {
      list.forEach((problem, i) => {
        expect(renderMessage(en, "en", problem)).toBe(errors[field][i]);
        for (const [t, language] of [
          [de, "de"],
          [fr, "fr"],
        ] as const) {
          const text = renderMessage(t, language, problem);
          expect(text, `${language} ${field}`).not.toMatch(/\{\{|edi_profile\.|undefined/);
          expect(text, `${language} ${field}`).not.toBe(errors[field][i]);
        }
      });
    }
    expect(renderMessage(de, "de", problems.output_segmenter[0])).toBe(
      'nicht verwendbar: das Elementtrennzeichen und das Segmentendezeichen sind dasselbe Zeichen ("|")',
    );
    expect(renderMessage(fr, "fr", problems["850_segments"][3])).toBe("ligne 4 : accolades non équilibrées");
  });

  it("every delimiter rule, the reader's own included, renders in English as its English sentence", () => {
    const sets = [
      { element: "ab", component: ">", segment: "~" },
      { element: "A", component: ">", segment: "~" },
      { element: "\t", component: ">", segment: "~" },
      { element: "*", component: ">", segment: "~~" },
      { element: "*", component: ">", segment: "B" },
      { element: "*", component: ">", repetition: "*", segment: "~" },
      { element: "*", component: ">", segment: "\t" },
    ];
    const issues = sets.flatMap((set) => delimiterIssues(set));
    expect(issues.length).toBeGreaterThanOrEqual(sets.length);
    for (const { message: english, coded } of issues) {
      expect(renderMessage(en, "en", coded)).toBe(english);
      expect(renderMessage(de, "de", coded)).not.toMatch(/\{\{|edi_profile\.| the /);
    }
    // A tab as the terminator passes the writer's own rules; the reader's rule refuses it, in German too.
    const [reader] = delimiterIssues({ element: "*", component: ">", segment: "\t" });
    expect(renderMessage(en, "en", reader.coded)).toBe(reader.message);
    expect(renderMessage(de, "de", reader.coded)).toBe(
      '"\\t" kann nicht das Segmentendezeichen sein (ein Zeichen oder CRLF, kein Buchstabe, ' +
        "keine Ziffer, kein Leerzeichen und weder das Element- noch das Komponententrennzeichen)",
    );
  });
});

describe("a drop-ship step's problems in the reader's language", () => {
  it("a vendor that cannot be reached and one whose stored password cannot be read, in Populate Ship Responses", async () => {
    const port = await closedPort();
    const common = {
      enabled: 1,
      transfer_mechanism_id: 1,
      sftp_host: "127.0.0.1",
      sftp_user: "vendor",
      sftp_incoming_folder: "/outbound",
      edi_format: 1,
      edi_identifier: "I18NEDI",
      edi_qualifier: "ZZ",
    };
    const gone = await prisma.vendor.create({ data: { ...common, name: "I18n Gone Vendor", store_id: "I18NGONE", sftp_port: port, sftp_pass: null } });
    const locked = await prisma.vendor.create({
      data: { ...common, name: "I18n Locked Vendor", store_id: "I18NLOCK", sftp_port: port, sftp_pass: "not-an-encrypted-secret" },
    });
    try {
      const unreachable = await populateShipResponses({ vendorId: gone.id });
      // The vendor's name once (issue 28): its transport error's own label is dropped behind it.
      expect(unreachable.problems).toEqual([`I18n Gone Vendor: 127.0.0.1:${port} is unreachable (connection refused)`]);
      expect(renderMessage(en, "en", unreachable.problemCodes![0])).toBe(unreachable.problems![0]);
      expect(renderMessage(de, "de", unreachable.problemCodes![0])).toBe(`I18n Gone Vendor: 127.0.0.1:${port} ist nicht erreichbar (Verbindung abgelehnt)`);

      const unreadable = await populateShipResponses({ vendorId: locked.id });
      expect(renderMessage(fr, "fr", unreadable.problemCodes![0])).toBe(
        "I18n Locked Vendor : Le secret enregistré n'a pas la forme attendue ; saisissez à nouveau le mot de passe.",
      );
      // As the Test page's run shows them (app/dropship/background-runs.server.ts).
      const detail = message("runs.problems", { problems: joined([...unreachable.problemCodes!, ...unreadable.problemCodes!], "; "), more: 0, count: 2 });
      expect(renderMessage(de, "de", detail)).toContain("ist nicht erreichbar (Verbindung abgelehnt); I18n Locked Vendor: Das gespeicherte Geheimnis");
    } finally {
      await prisma.dropshipLog.deleteMany({ where: { vendor_id: { in: [gone.id, locked.id] } } });
      await prisma.vendor.deleteMany({ where: { id: { in: [gone.id, locked.id] } } });
    }
  });
});
