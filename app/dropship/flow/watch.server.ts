// The minute watch (issue 31 item 5, D252): a feed that runs every minute and starts
// a drop-ship step at once when there is work for it, so an assignment reaches its
// vendor as an 850, and a vendor's 856 reaches Shopify, within a couple of minutes
// rather than at the steps' next crons (which stay, as the backstop).
// - Any assignment awaiting its ship request (one EXISTS on an index): Populate Ship
//   Requests, which starts Send Ship Requests when it made requests (D250).
// - Each active vendor's incoming folders listed, one listing a folder and no download,
//   a few vendors at once; a vendor that is down fails alone (its partner contact says
//   so, D241). A file Take would take now starts Populate Ship Responses (Take), which
//   starts Process Ship Responses when it stored files. Files still being written are
//   remembered as sightings, as Take remembers them (D60, D181), so that a later Take
//   takes them at once. Nothing is written when nothing changed.
// Each step runs through its own feed (lock and logs, trigger "chain"); one running
// already is left to that run, quietly (the next minute looks again).
import type { Vendor } from "~/db/generated/client";
import { env } from "~/env.server";
import type { FeedJob } from "~/feeds/runner.server";
import { englishText } from "~/i18n/english.server";
import { joined, message, type RunMessage } from "~/i18n/messages";
import { errorMessage } from "~/lib/error-message";
import { logger } from "~/observability/logger.server";
import { selectFromListing } from "~/transfers/incoming-listing.server";
import { changedSince, readSightings, recordSightings, waitedLongEnough, type Sighting } from "~/transfers/whole-files.server";
import { inFlight, type RemoteFile, type VendorTransport } from "@edi/transport";
import { withVendorTransport } from "../vendor-connection.server";
import { vendorProfile } from "./context.server";
import { assignmentsAwaitRequests } from "./populate-requests.server";
import { folderSightingOwner, vendorIncomingFolders, vendorsToRead } from "./populate-responses.server";
import { DROPSHIP_STEPS, runStepChain, type StepRun } from "./steps.server";

export const DROPSHIP_WATCH_FEED = { name: "dropship_watch", defaultCron: "* * * * *" } as const;

/** Vendors listed at once, each over its own connection (as Take connects to them, D132). */
const VENDORS_AT_ONCE = 16;

const log = logger("dropship");

/** What the watch saw of one vendor's folders. */
interface VendorLook {
  /** Files Take would take now (after its own checks: the settle pause for a young file, D60). */
  toTake: number;
  /** Files left to a later look: still being written, or downloaded before and found not whole. */
  waiting: number;
}

type FileVerdict = "take" | "wait";

/**
 * Whether Take would take a listed file now, as its own rules say (D60, D181), from the listing and what was
 * seen before: a file never seen is taken (old enough at once, a young one after Take's settle pause); one that
 * changed since it was seen is still being written; one downloaded unfinished at this size waits for a change;
 * one that has waited its longest wait is taken as it is.
 */
export function verdictOn(file: Pick<RemoteFile, "size" | "modifiedAt">, sighting: Sighting | undefined, maxWaitMs: number, now = new Date()): FileVerdict {
  if (!sighting || waitedLongEnough(sighting, maxWaitMs, now)) return "take";
  if (changedSince(sighting, file) || sighting.notWhole) return "wait";
  return "take";
}

/** One folder: listed (bounded, D180), its files judged; a file new and young, or changed, is remembered (a sighting). */
async function lookAtFolder(vendor: Vendor, folder: string, transport: VendorTransport, look: VendorLook) {
  const { profile } = vendorProfile(vendor);
  const listing = await transport.list(folder);
  const maxBytes = env().MAX_DOWNLOAD_MB * 1024 * 1024;
  // What Take would look at: the same selection (names that are paths refused, the regex, at most MAX_FILES_PER_FOLDER);
  // a file over MAX_DOWNLOAD_MB is left by Take, so it is no reason to start it.
  const selection = selectFromListing(listing, (file) => !profile.fileNamePattern || profile.fileNamePattern.test(file.name), env().MAX_FILES_PER_FOLDER);
  const files = selection.taken.filter((file) => file.size <= maxBytes);
  if (files.length === 0) return;
  const owner = folderSightingOwner(vendor, folder);
  const sightings = await readSightings(
    owner,
    files.map((file) => file.path),
  );
  const now = new Date();
  const minAgeMs = vendor.incoming_min_age_seconds * 1000;
  const maxWaitMs = vendor.incoming_max_wait_minutes * 60_000;
  const remember: RemoteFile[] = [];
  for (const file of files) {
    const sighting = sightings.get(file.path);
    const young = file.modifiedAt === null || now.getTime() - file.modifiedAt.getTime() < minAgeMs;
    // This listing is the first of the two that tell a file no longer written (D60): Take's own, or a later one, is the second.
    if ((!sighting && young) || (sighting && changedSince(sighting, file))) remember.push(file);
    if (verdictOn(file, sighting, maxWaitMs, now) === "take") look.toTake++;
    else look.waiting++;
  }
  await recordSightings(owner, remember);
}

/** Each vendor's folders listed; the vendors that could not be, by name. */
async function lookAtVendors(signal: AbortSignal) {
  const vendors = await vendorsToRead();
  const looks = new Map<number, VendorLook>();
  const notListed: string[] = [];
  const outcomes = await inFlight(vendors, VENDORS_AT_ONCE, async (vendor) => {
    if (signal.aborted) return;
    const look: VendorLook = { toTake: 0, waiting: 0 };
    try {
      await withVendorTransport(vendor, async (transport) => {
        for (const folder of vendorIncomingFolders(vendor)) await lookAtFolder(vendor, folder, transport, look);
      });
      looks.set(vendor.id, look);
    } catch (error) {
      // One vendor down fails alone; its connection's failure is noted for it (partner contact, D241).
      notListed.push(vendor.name);
      log.info({ vendor: vendor.id }, `the watch could not list ${vendor.name}'s folders: ${errorMessage(error)}`);
    }
  });
  // What even the error handling could not handle (the database gone) fails the watch.
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  return { listed: looks.size, looks: [...looks.values()], notListed };
}

const startedText = (runs: StepRun[]) => runs.filter((run) => run.result && run.result.logId !== 0).map((run) => DROPSHIP_STEPS[run.action].feed);
const busyText = (runs: StepRun[]) => runs.filter((run) => run.result?.status === "skipped").map((run) => DROPSHIP_STEPS[run.action].feed);

export const dropshipWatchJob: FeedJob = async ({ signal }) => {
  // The two halves at once: the assignments' check is one query, the listings take their time.
  const [requests, responses] = await Promise.all([
    (async () => {
      const waiting = await assignmentsAwaitRequests();
      return { waiting, runs: waiting ? await runStepChain("populateRequests", { signal, whenBusy: "skip_quietly" }) : [] };
    })(),
    (async () => {
      const seen = await lookAtVendors(signal);
      const toTake = seen.looks.reduce((sum, look) => sum + look.toTake, 0);
      const waiting = seen.looks.reduce((sum, look) => sum + look.waiting, 0);
      const runs = toTake && !signal.aborted ? await runStepChain("populateResponses", { signal, whenBusy: "skip_quietly" }) : [];
      return { ...seen, toTake, waiting, runs };
    })(),
  ]);
  const runs = [...requests.runs, ...responses.runs];
  const started = startedText(runs);
  const busy = busyText(runs);
  const parts: RunMessage[] = [
    message("logs.feeds.dropship_watch", {
      vendors: message("runs.n.vendor", { count: responses.listed }),
      files: message("runs.n.file", { count: responses.toTake }),
    }),
  ];
  if (responses.notListed.length) parts.push(message("logs.feeds.dropship_watch_not_listed", { vendors: responses.notListed.slice(0, 10).join(", ") }));
  if (requests.waiting) parts.push(message("logs.feeds.dropship_watch_assignments"));
  if (started.length) parts.push(message("logs.feeds.dropship_watch_started", { feeds: started.join(", ") }));
  if (busy.length) parts.push(message("logs.feeds.dropship_watch_busy", { feeds: busy.join(", ") }));
  const coded = joined(parts);
  const failed = runs.filter((run) => run.result && (run.result.status === "failed" || run.result.error));
  return {
    message: englishText(coded),
    messageCode: coded,
    // A step that failed says so in its own feed log; the watch only names it.
    meta: {
      vendors_listed: responses.listed,
      vendors_not_listed: responses.notListed.length,
      files_to_take: responses.toTake,
      files_waiting: responses.waiting,
      assignments_waiting: requests.waiting ? 1 : 0,
      steps_started: started.length,
      ...(responses.notListed.length ? { not_listed: responses.notListed.slice(0, 50) } : {}),
      ...(started.length ? { started } : {}),
      ...(busy.length ? { busy } : {}),
      ...(failed.length ? { failed: failed.map((run) => DROPSHIP_STEPS[run.action].feed) } : {}),
    },
  };
};
