// Every PostgreSQL advisory lock key of the app, in one place: two locks that
// share a key block each other for no reason (the assignment import and the
// product catalogue once did). Session locks and two-int locks take these as
// their first key; the test beside this file checks they stay distinct.
export const LOCK_KEYS = {
  /** One migrator at a time (a single bigint key). */
  migrations: 72_700_001,
  /** One run per feed anywhere (second key: the feed's name). */
  feedRun: 72_700_002,
  /** The sources offered for assignment (stores and dropshippers) change one writer at a time. */
  sources: 72_700_003,
  /** Per Shopify order (second key: the order id): webhooks, drop-ship shipments, sales assignment. */
  shopifyOrder: 72_700_010,
  /** Storing one vendor file (second key: the vendor and the remote path). */
  vendorIncomingFile: 72_700_012,
  /** Storing one AS400 file of each kind (second key: its remote path). */
  orderStatusFile: 72_700_011,
  specialOrderFile: 72_700_013,
  assignmentFile: 72_700_021,
  productCatalogFile: 72_700_022,
  /** One EOD run, export or retry at a time. */
  eod: 72_700_031,
  /** One background run per key anywhere (second key: the run's lock key, app/runs/runs.server.ts). */
  backgroundRun: 72_700_040,
  /** One Needs attention sweep at a time (items opened once, alerts queued once). */
  attentionSweep: 72_700_050,
  /** One alert delivery round at a time (an alert sent once). */
  attentionAlerts: 72_700_051,
} as const;
