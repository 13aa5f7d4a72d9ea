// Every scheduled job, by feed name. defaultCron only seeds a new feed row;
// staff change the cron on the feed screens. The other areas add theirs here.
// The app's modules never import this file: the composition roots hand it in
// (the scheduler's start in jobs/main.ts and server/main.ts, Run Feed's route; D97).
import { DROPSHIP_STEP_ACTIONS, DROPSHIP_STEPS, stepFeedJob } from "../app/dropship/flow/steps.server";
import { DROPSHIP_WATCH_FEED, dropshipWatchJob } from "../app/dropship/flow/watch.server";
import { StepReport } from "../app/dropship/flow/context.server";
import { deliverAs400Copies } from "../app/dropship/flow/outbound.server";
import { syncInventoryToShopify } from "../app/dropship/flow/shopify-sync.server";
import type { FeedJob, FeedRegistry } from "../app/feeds/runner.server";
import { englishText } from "../app/i18n/english.server";
import { message } from "../app/i18n/messages";
import { importOrderStatusFiles } from "../app/orders/order-status-feed.server";
import { productSyncJob } from "../app/products/product-sync.server";
import { pullSpecialOrders, SPECIAL_ORDER_FEED_CRON } from "../app/special-orders/pull.server";
import { ASSIGNMENT_IMPORT_FEED, assignmentImportJob } from "../app/sales/feeds.server";
import { exportRealtimeLogs } from "../app/as400/realtime-export.server";
import { eodReportJob } from "../app/eod/actions.server";
import { LOCATION_SYNC_FEED, locationSyncJob } from "../app/sales/stores.server";
import { releaseAllClosedLines } from "../app/sales/order-lines.server";
import { NEEDS_ATTENTION_FEED, needsAttentionJob } from "../app/attention/feed.server";
import { refreshVendorScorecards, SCORECARD_WINDOWS } from "../app/dropship/scorecards.server";

/** Vendor stock to Shopify and the 846 copies to the AS400 (the 846 files themselves are read by process_ship_responses). */
const vendorInventory: FeedJob = async () => {
  const report = new StepReport();
  await syncInventoryToShopify(report);
  await deliverAs400Copies(report, "846");
  const summary = message("logs.feeds.vendor_inventory", {
    levels: message("logs.n.stock_level", { count: report.counts.stock_levels_sent ?? 0 }),
    copies: report.counts.as400_copies ?? 0,
  });
  const result = report.result(englishText(summary), summary);
  return { message: result.message, messageCode: result.messageCode, error: result.error, meta: result.meta };
};

/** The order system's status file, then what its canceled orders no longer need taken back from their sources (D226). */
const orderStatus: FeedJob = async (context) => {
  const outcome = await importOrderStatusFiles(context);
  const released = await releaseAllClosedLines();
  if (!released.orders) return outcome;
  const coded = message("logs.list", { items: [outcome.messageCode ?? outcome.message, message("cancellations.order_lines.feed", { ...released })] });
  return { ...outcome, message: englishText(coded), messageCode: coded, meta: { ...outcome.meta, released } };
};

/** Vendor invoices (810) waiting for the AS400. */
const vendorInvoices: FeedJob = async () => {
  const report = new StepReport();
  await deliverAs400Copies(report, "810");
  const summary = message("logs.feeds.vendor_invoices", { copies: report.counts.as400_copies ?? 0 });
  const result = report.result(englishText(summary), summary);
  return { message: result.message, messageCode: result.messageCode, error: result.error, meta: result.meta };
};

/** Every vendor's 30- and 90-day scorecard, rebuilt from what the flow stored (D244). */
const vendorScorecards: FeedJob = async () => {
  const rows = await refreshVendorScorecards();
  const summary = message("logs.feeds.vendor_scorecards", { vendors: rows / SCORECARD_WINDOWS.length });
  return { message: englishText(summary), messageCode: summary, meta: { scorecards: rows } };
};

export const FEED_JOBS: FeedRegistry = {
  // The five steps; a scheduled Populate that made requests, or a Take that stored files, starts the next step at once (D250).
  ...Object.fromEntries(DROPSHIP_STEP_ACTIONS.map((action) => [DROPSHIP_STEPS[action].feed, stepFeedJob(action)])),
  // Every minute: a step started when there is work for it (assignments waiting, files in a vendor's folder), D252.
  [DROPSHIP_WATCH_FEED.name]: { defaultCron: DROPSHIP_WATCH_FEED.defaultCron, run: dropshipWatchJob, whenBusy: "skip_quietly" },
  vendor_inventory_846: { defaultCron: "0 */4 * * *", run: vendorInventory },
  vendor_invoices_810: { defaultCron: "30 6 * * *", run: vendorInvoices },
  // The order system's status file (docs/as400-files.md); orders themselves arrive by Shopify webhooks.
  order_sync: { defaultCron: "*/5 * * * *", run: orderStatus },
  // Category-tag mappings become Shopify product tags (app/products/product-sync.server.ts).
  product_sync: { defaultCron: "0 3 * * *", run: productSyncJob },
  // Store tickets from the AS400 become Shopify orders (docs/as400-files.md); the same run as Pull New Special Orders.
  special_order_pull: { defaultCron: SPECIAL_ORDER_FEED_CRON, run: (context) => pullSpecialOrders(context) },
  // The AS400's assignment files (docs/as400-files.md), also run by Retrieve New Assignments From AS400.
  [ASSIGNMENT_IMPORT_FEED.name]: { defaultCron: ASSIGNMENT_IMPORT_FEED.defaultCron, run: assignmentImportJob },
  // Sales, refunds and shipments queued in the realtime logs, to the AS400 (docs/as400-files.md, D26).
  realtime_as400_export: { defaultCron: "* * * * *", run: exportRealtimeLogs },
  // Today and yesterday again, failed or unsent batches again, then the new batch to the AS400 (D31).
  eod_report: { defaultCron: "0 23 * * *", run: eodReportJob },
  // The shop's Shopify locations become the stores, with their stock of the open orders' SKUs (D48).
  [LOCATION_SYNC_FEED.name]: { defaultCron: LOCATION_SYNC_FEED.defaultCron, run: locationSyncJob },
  // What waits for a person: late vendors, refused files, failed feeds…, and the alerts that reach staff (issue 30, D239, D240).
  [NEEDS_ATTENTION_FEED.name]: { defaultCron: NEEDS_ATTENTION_FEED.defaultCron, run: needsAttentionJob },
  vendor_scorecards: { defaultCron: "15 * * * *", run: vendorScorecards },
};
