// The demo vendor of local mode: a loopback SFTP server that the demo vendors
// are pointed at, and a loop playing every vendor at once. It answers each
// 850 (or purchase-order CSV) the app uploads with a 997 and an 855 at once,
// an 856 and an 810 a little later, and sends 846s now and then; it answers a
// cancellation with an 865 (or the answer CSV): accepted until it shipped, so every
// drop-ship button does real work without a real vendor. The server's disk is
// our own: the loop works on its files directly, not through an SFTP client.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { createPrismaClient } from "../db/client.server";
import type { Vendor } from "../db/generated/client";
import { encryptSecret, vendorPasswordBinding } from "../lib/secrets.server";
import { as400CopyFolder } from "../as400/copy-folders";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import type { OurIdentity } from "@edi/vendor-profile";
import { specialOrderSampleFiles } from "./special-order-samples";
import { answerPurchaseOrderFile, inventoryAdvice, type OutFile } from "../dropship/tools/vendor-answers";
import { answerCancellationFile } from "../dropship/tools/cancellation-answers";
import { answerAutoAssignmentFiles } from "./demo-as400-assignments";
import { logger } from "~/observability/logger.server";

const log = logger("demo-vendor");

export interface DemoVendorOptions {
  databaseUrl: string;
  /** The app's DATA_DIR: the server's files, host key and state go under <dataDir>/demo-vendor. */
  dataDir: string;
  /** How often the outcoming folders are looked at; default 2 s. */
  pollMs?: number;
  /** How long after the 855 the 856 and 810 come; default 5 s. */
  laterDelayMs?: number;
  /** How often 846-enabled vendors send inventory; default 10 min, the first shortly after start. */
  inventoryEveryMs?: number;
  /** Us, as the app writes us in X12 envelopes (EDI_SENDER_QUALIFIER / EDI_SENDER_ID). */
  ourIdentity: OurIdentity;
}

export interface RunningDemoVendor {
  stop(): Promise<void>;
  sftp: { host: string; port: number; hostKey: string };
  /** The AS400 stand-in on the same server: its own user and folder tree. */
  as400: { host: string; port: number; user: string; password: string; hostKey: string; folder: string };
  /** One pass now (tests): answer what is waiting, deliver what is due, inventory when due. */
  tick(): Promise<void>;
}

/** A vendor answer not yet written: kept in the state file so a restart does not lose it. */
interface PendingFile {
  user: string;
  folder: string;
  name: string;
  content: string;
  dueAt: number;
}

interface State {
  nextControlNumber: number;
  /** The last port, tried again first so vendor rows stay valid across restarts. */
  port?: number;
  pending: PendingFile[];
  /** The sample special-order files were put in the AS400's folder (once, at the first start). */
  specialOrderSamplesPlaced?: boolean;
}

const AS400_USER = "as400";
const AS400_FOLDER = "/as400";
const FIRST_INVENTORY_MS = 10_000;

export async function startDemoVendor(options: DemoVendorOptions): Promise<RunningDemoVendor> {
  const pollMs = options.pollMs ?? 2_000;
  const laterDelayMs = options.laterDelayMs ?? 5_000;
  const inventoryEveryMs = options.inventoryEveryMs ?? 600_000;
  const home = path.join(path.resolve(options.dataDir), "demo-vendor");
  const root = path.join(home, "sftp");
  const statePath = path.join(home, "state.json");
  await fs.mkdir(path.join(root, "users"), { recursive: true });
  const state = await loadState(statePath);

  // Read at each login by the server: filled in as vendors are pointed at it.
  const users: Record<string, string> = {};
  const userRoots: Record<string, string> = {};
  const as400Password = randomPassword();
  users[AS400_USER] = as400Password;
  userRoots[AS400_USER] = `users/${AS400_USER}`;
  const userHome = (user: string) => path.join(root, userRoots[user] ?? `users/${user}`);
  for (const folder of ["invoices", "inventory", "auto-assignment", "assignments"])
    await fs.mkdir(inside(userHome(AS400_USER), `${AS400_FOLDER}/${folder}`), { recursive: true });

  // One host key for good, so the fingerprint pinned in the vendor rows survives restarts.
  const hostKeyPath = path.join(home, "host_key.pem");
  const savedKey = await fs.readFile(hostKeyPath, "utf8").catch(() => undefined);
  const start = (port: number) => startSftpServer({ root, users, userRoots, hostKeyPem: savedKey, port });
  let server: SftpTestServer;
  try {
    server = await start(state.port ?? 0).catch((error: NodeJS.ErrnoException) => {
      if (state.port && (error.code === "EADDRINUSE" || error.code === "EACCES")) return start(0); // the old port is taken
      throw error;
    });
  } catch (error) {
    if (savedKey && !(error as NodeJS.ErrnoException).code)
      throw new Error(`demo vendor: ${hostKeyPath} is not a usable host key (${(error as Error).message}); delete it to make a new one`);
    throw error;
  }
  if (!savedKey) {
    await fs.writeFile(hostKeyPath, server.hostKeyPem, { mode: 0o600, flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
  state.port = server.port;
  await saveState(statePath, state);

  const db = createPrismaClient(options.databaseUrl, 2);
  /** Vendor id → its SFTP user, and the password ciphertext we stored (changed by staff: point it again). */
  const pointed = new Map<number, { user: string; storedPass: string }>();

  /**
   * Points the demo vendors at this server: rows whose host ends with
   * ".example.com" (the seed's), or 127.0.0.1 with a demo_ user (an earlier
   * run's). No other row is touched. The demo serves SFTP only, so FTP vendors
   * become SFTP vendors here. The ".example.com" rows are taken at start only:
   * a vendor staff create later with such a host stays as they typed it.
   */
  async function pointVendors(atStart = false): Promise<Vendor[]> {
    const demoRows = { sftp_host: "127.0.0.1", sftp_user: { startsWith: "demo_" } };
    const rows = await db.vendor.findMany({
      where: atStart ? { OR: [{ sftp_host: { endsWith: ".example.com", mode: "insensitive" } }, demoRows] } : demoRows,
      orderBy: { id: "asc" },
    });
    for (const row of rows) {
      const known = pointed.get(row.id);
      const current =
        known &&
        row.sftp_host === "127.0.0.1" &&
        row.sftp_port === server.port &&
        row.sftp_user === known.user &&
        row.sftp_pass === known.storedPass &&
        row.sftp_host_key === server.hostKey &&
        row.transfer_mechanism_id === 1;
      if (!current) {
        const user = known?.user ?? userNameFor(row, new Set([...pointed.values()].map((each) => each.user)));
        const password = randomPassword();
        const storedPass = encryptSecret(password, vendorPasswordBinding(row.id));
        const data = {
          sftp_host: "127.0.0.1",
          sftp_port: server.port,
          transfer_mechanism_id: 1,
          sftp_user: user,
          sftp_pass: storedPass,
          sftp_host_key: server.hostKey,
        };
        await db.vendor.update({ where: { id: row.id }, data });
        Object.assign(row, data);
        users[user] = password;
        userRoots[user] = `users/${user}`;
        pointed.set(row.id, { user, storedPass });
      }
      const own = userHome(pointed.get(row.id)!.user);
      for (const folder of [row.sftp_incoming_folder, row.sftp_outcoming_folder, row.sftp_cancellation_put_folder, row.sftp_cancellation_pull_folder]) {
        if (folder) await fs.mkdir(inside(own, folder), { recursive: true });
      }
      // The app copies 810s and 846s into these folders of the AS400; it does not create them.
      for (const [set, folder] of [
        ["810", row.edi810_as400_filepath],
        ["846", row.edi846_as400_filepath],
      ] as const) {
        if (folder) await fs.mkdir(inside(userHome(AS400_USER), as400CopyFolder(set, folder)), { recursive: true });
      }
    }
    return rows;
  }

  /** Answers every file waiting in the vendor's outcoming folder, then moves it into processed/ (or rejected/). */
  async function answerWaitingFiles(vendor: Vendor, now: Date) {
    const user = pointed.get(vendor.id)?.user;
    if (!user || !vendor.sftp_outcoming_folder || !vendor.sftp_incoming_folder) return;
    const outcoming = inside(userHome(user), vendor.sftp_outcoming_folder);
    const incoming = inside(userHome(user), vendor.sftp_incoming_folder);
    const entries = await fs.readdir(outcoming, { withFileTypes: true }).catch(() => []);
    // Names starting with "." are uploads still under way (".name.part") or hidden files.
    const waiting = entries
      .filter((entry) => entry.isFile() && !entry.name.startsWith(".") && !isCancellationFile(entry.name))
      .map((entry) => entry.name)
      .sort();
    for (const name of waiting) {
      const content = await fs.readFile(path.join(outcoming, name));
      const answer = answerPurchaseOrderFile(vendor, name, content, { now, controlNumberStart: state.nextControlNumber, ours: options.ourIdentity });
      if ("error" in answer) {
        // Set aside, so one unreadable file is reported once rather than at every pass.
        const moved = await moveInto(path.join(outcoming, name), path.join(outcoming, "rejected"));
        log.warn(`demo vendor ${vendor.name}: ${answer.error}; moved to ${vendor.sftp_outcoming_folder}/rejected/${moved}`);
        continue;
      }
      for (const problem of answer.problems) log.warn(`demo vendor ${vendor.name}: ${problem}`);
      for (const file of answer.immediate) await writeAtomically(incoming, file);
      state.pending.push(...answer.later.map((file) => ({ user, folder: vendor.sftp_incoming_folder!, ...file, dueAt: now.getTime() + laterDelayMs })));
      state.nextControlNumber = answer.nextControlNumber;
      // Saved before the 850 is moved: a crash in between answers it twice rather than never.
      await saveState(statePath, state);
      await moveInto(path.join(outcoming, name), path.join(outcoming, "processed"));
    }
  }

  /**
   * Answers our cancellations (D225), from the Cancellation Put Folder (or the outcoming folder, where they go
   * when it is empty), into the Cancellation Pull Folder (or the incoming folder): accepted while the PO's
   * 856 is still waiting to be delivered, which is then dropped with its 810; refused once it was shipped.
   */
  async function answerCancellations(vendor: Vendor, now: Date) {
    const user = pointed.get(vendor.id)?.user;
    const put = vendor.sftp_cancellation_put_folder?.trim() || vendor.sftp_outcoming_folder;
    const pull = vendor.sftp_cancellation_pull_folder?.trim() || vendor.sftp_incoming_folder;
    if (!user || !put || !pull) return;
    const folder = inside(userHome(user), put);
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    const waiting = entries.filter((entry) => entry.isFile() && isCancellationFile(entry.name)).map((entry) => entry.name);
    for (const name of waiting.sort()) {
      const content = await fs.readFile(path.join(folder, name));
      // Not shipped yet: its 856 is still among the files waiting to be delivered.
      const unshipped = (po: string) => state.pending.some((file) => file.user === user && file.name.startsWith("856") && file.content.includes(po));
      const answer = answerCancellationFile(vendor, name, content, {
        now,
        controlNumberStart: state.nextControlNumber,
        ours: options.ourIdentity,
        refusal: (po) => (unshipped(po) ? null : `shipped before ${now.toISOString().slice(0, 10)}`),
      });
      if ("error" in answer) {
        const moved = await moveInto(path.join(folder, name), path.join(folder, "rejected"));
        log.warn(`demo vendor ${vendor.name}: ${answer.error}; moved to ${put}/rejected/${moved}`);
        continue;
      }
      const accepted = answer.answered.filter((each) => each.outcome === "accepted").map((each) => each.poNumber);
      state.pending = state.pending.filter((file) => file.user !== user || !accepted.some((po) => file.content.includes(po)));
      for (const file of answer.files) await writeAtomically(inside(userHome(user), pull), file);
      state.nextControlNumber = answer.nextControlNumber;
      await saveState(statePath, state);
      await moveInto(path.join(folder, name), path.join(folder, "processed"));
    }
  }

  async function deliverDueFiles(now: Date) {
    const due = state.pending.filter((file) => file.dueAt <= now.getTime());
    if (!due.length) return;
    for (const file of due) {
      try {
        await writeAtomically(inside(userHome(file.user), file.folder), file);
      } catch (error) {
        log.warn(`demo vendor: could not deliver ${file.name} to ${file.user}: ${(error as Error).message}; dropped`);
      }
    }
    state.pending = state.pending.filter((file) => !due.includes(file));
    await saveState(statePath, state);
  }

  /** An 846 per 846-enabled vendor, its quantities around the vendor's stock rows. */
  async function sendInventory(vendors: Vendor[], now: Date) {
    for (const vendor of vendors.filter((each) => each.edi846_enabled === 1)) {
      const user = pointed.get(vendor.id)?.user;
      if (!user || !vendor.sftp_incoming_folder) continue;
      try {
        const stock = await db.sourceStock.findMany({
          where: { source_code: vendor.store_id },
          select: { sku: true, quantity: true },
          orderBy: { sku: "asc" },
        });
        if (!stock.length) continue;
        const items = stock.map(({ sku, quantity }) => ({ sku, quantity: aroundQuantity(quantity) }));
        const file = inventoryAdvice(vendor, items, { now, controlNumberStart: state.nextControlNumber, ours: options.ourIdentity });
        state.nextControlNumber = file.nextControlNumber;
        await writeAtomically(inside(userHome(user), vendor.sftp_incoming_folder), file);
        await saveState(statePath, state);
      } catch (error) {
        log.warn(`demo vendor ${vendor.name}: inventory not sent: ${(error as Error).message}`);
      }
    }
  }

  /** Special-order files waiting on the AS400 at the first start, for Pull New Special Orders. */
  async function placeSpecialOrderSamples() {
    if (state.specialOrderSamplesPlaced) return;
    const skus = (await db.product.findMany({ select: { sku: true }, orderBy: { sku: "asc" }, take: 5 })).map((product) => product.sku);
    if (skus.length === 0) return; // no products to order yet: tried at the next start
    for (const file of specialOrderSampleFiles(skus, new Date())) await writeAtomically(inside(userHome(AS400_USER), `${AS400_FOLDER}/special-orders`), file);
    state.specialOrderSamplesPlaced = true;
    await saveState(statePath, state);
  }

  let nextInventoryAt = Date.now() + Math.min(inventoryEveryMs, FIRST_INVENTORY_MS);
  async function pass() {
    try {
      const now = new Date();
      const vendors = (await pointVendors()).filter((vendor) => vendor.enabled === 1 && vendor.archived_at === null);
      for (const vendor of vendors) {
        try {
          await answerWaitingFiles(vendor, now);
          await answerCancellations(vendor, now);
        } catch (error) {
          log.warn(`demo vendor ${vendor.name}: ${(error as Error).message}`);
        }
      }
      await deliverDueFiles(now);
      // The AS400 answers the app's auto-assignments files (sales area).
      await answerAutoAssignmentFiles(db, inside(userHome(AS400_USER), AS400_FOLDER), now).catch((error: Error) => log.warn(`demo AS400: ${error.message}`));
      if (now.getTime() >= nextInventoryAt) {
        nextInventoryAt = now.getTime() + inventoryEveryMs;
        await sendInventory(vendors, now);
      }
    } catch (error) {
      log.warn(`demo vendor: ${(error as Error).message}`);
    }
  }

  // Passes never overlap: the timer's and tick()'s run one after another.
  let running: Promise<void> = Promise.resolve();
  const tick = () => (running = running.then(pass));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => void tick().then(() => !stopped && schedule()), pollMs);
  };

  try {
    await pointVendors(true);
    await placeSpecialOrderSamples();
  } catch (error) {
    await server.stop();
    await db.$disconnect();
    throw error;
  }
  schedule();

  return {
    sftp: { host: server.host, port: server.port, hostKey: server.hostKey },
    as400: { host: server.host, port: server.port, user: AS400_USER, password: as400Password, hostKey: server.hostKey, folder: AS400_FOLDER },
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await server.stop();
      await db.$disconnect();
    },
  };
}

/** demo_<store id>, made safe as a user and folder name, and unique among the demo vendors. */
function userNameFor(vendor: Pick<Vendor, "id" | "store_id">, taken: Set<string>): string {
  const name = `demo_${vendor.store_id.toLowerCase().replace(/[^a-z0-9_-]/g, "_")}`;
  return taken.has(name) ? `${name}_${vendor.id}` : name;
}

/** A remote folder as a path on disk inside the user's home: "/inbound" → <home>/inbound; ".." stops at home. */
function inside(home: string, remoteFolder: string): string {
  return path.join(home, path.posix.resolve("/", remoteFolder));
}

const randomPassword = () => randomBytes(18).toString("base64url");

/** Our cancellation files, by the names Send Ship Requests gives them (860_CANCEL_…, 850_CANCEL_…, CANCEL_….csv). */
const isCancellationFile = (name: string) => /^(?:8[56]0_)?CANCEL_/.test(name);

/** Stock moves a little between advices; now and then an item sells out. */
function aroundQuantity(quantity: number): number {
  if (Math.random() < 0.05) return 0;
  return Math.max(0, quantity + Math.round((Math.random() - 0.5) * 6));
}

/** Written under ".name.part" and renamed, as the app's own uploads: a reader never sees half a file. */
async function writeAtomically(folder: string, file: OutFile) {
  await fs.mkdir(folder, { recursive: true });
  const partial = path.join(folder, `.${file.name}.part`);
  await fs.writeFile(partial, file.content);
  await fs.rename(partial, path.join(folder, file.name));
}

/** Moves a file into a folder (created if missing) without replacing one there; returns the name it got. */
async function moveInto(file: string, folder: string): Promise<string> {
  await fs.mkdir(folder, { recursive: true });
  const name = path.basename(file);
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem}_${n}${extension}`;
    const exists = await fs.access(path.join(folder, candidate)).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await fs.rename(file, path.join(folder, candidate));
    return candidate;
  }
}

async function loadState(file: string): Promise<State> {
  const fresh: State = { nextControlNumber: 1, pending: [] };
  const text = await fs.readFile(file, "utf8").catch(() => null);
  if (text === null) return fresh;
  try {
    const saved = JSON.parse(text) as Partial<State>;
    return {
      nextControlNumber: Number.isSafeInteger(saved.nextControlNumber) && saved.nextControlNumber! > 0 ? saved.nextControlNumber! : 1,
      port: Number.isInteger(saved.port) ? saved.port : undefined,
      pending: Array.isArray(saved.pending) ? saved.pending.filter(isPendingFile) : [],
      specialOrderSamplesPlaced: saved.specialOrderSamplesPlaced === true,
    };
  } catch {
    log.warn(`demo vendor: ${file} is not readable JSON; starting afresh`);
    return fresh;
  }
}

function isPendingFile(value: unknown): value is PendingFile {
  const file = value as PendingFile | null;
  return (
    typeof file?.user === "string" &&
    typeof file.folder === "string" &&
    typeof file.name === "string" &&
    typeof file.content === "string" &&
    typeof file.dueAt === "number"
  );
}

async function saveState(file: string, state: State) {
  const partial = `${file}.part`;
  await fs.writeFile(partial, JSON.stringify(state));
  await fs.rename(partial, file);
}
