// Vendor scorecards (issue 30 item 5, D244): per vendor over the last 30 and
// 90 days, from what the flow already stores. One SQL statement rebuilds them
// all (the vendor_scorecards feed, hourly); the screens read the table.
import prisma from "~/db.server";
import type { PrismaClient } from "~/db/client.server";
import { getSettings, type Settings } from "~/settings/settings.server";

export const SCORECARD_WINDOWS = [30, 90] as const;

export interface Scorecard {
  window_days: number;
  pos_sent: number;
  /** Shares of the POs due, 0–100, one decimal; null when none was due yet. */
  acknowledged_pct: number | null;
  on_time_pct: number | null;
  median_hours_to_ship: number | null;
  rejected_lines: number;
  backordered_lines: number;
  cancelled_lines: number;
  invoice_mismatches: number;
  refused_files: number;
  computed_at: string;
}

/**
 * Rebuilds every vendor's scorecards as of `now`. A PO counts in a window by its upload; it is "due" for its 855
 * (or 856) when the vendor's hours have passed or the answer came, and on time when the answer came within them.
 */
export async function refreshVendorScorecards(now = new Date(), settingsGiven?: Settings, db: PrismaClient = prisma): Promise<number> {
  const levels = (settingsGiven ?? (await getSettings(db))).service_levels;
  const since = new Date(now.getTime() - Math.max(...SCORECARD_WINDOWS) * 86_400_000);
  // One statement, rows upserted in place: two refreshes at once (the feed and Run Feed, or a caller such as the
  // Needs attention sweep) both succeed; a delete-then-insert would make the later one fail on the primary key.
  return db.$executeRaw`
      WITH req AS (
        SELECT r.vendor_id, r.request_id, r.sent_at, r.status,
               r.sent_at + make_interval(hours => COALESCE(v.sla_855_hours, ${levels.sla_855_hours})) AS ack_deadline,
               r.sent_at + make_interval(hours => COALESCE(v.sla_856_hours, ${levels.sla_856_hours})) AS ship_deadline
          FROM dropship_request r JOIN dropship_vendor v ON v.id = r.vendor_id
         WHERE r.sent_at >= ${since} AND r.sent_at <= ${now}
      ),
      -- The answers of those requests, one row each: a join over the responses, not a lookup per request.
      answers AS (
        SELECT x.request_id,
               min(x.created_at) FILTER (WHERE x.response_type = '855') AS ack_at,
               min(x.created_at) FILTER (WHERE x.response_type = '856') AS ship_at,
               bool_or(x.response_type = '855' AND x.line_status = 'rejected') AS rejected,
               bool_or(x.response_type = '855' AND x.line_status = 'backordered') AS backordered
          FROM dropship_response x
         WHERE x.request_id IN (SELECT request_id FROM req) AND x.response_type IN ('855', '856')
         GROUP BY x.request_id
      ),
      cancelled AS (SELECT DISTINCT c.request_id FROM dropship_cancellation c WHERE c.status IN ('accepted', 'done')),
      scored AS (
        SELECT req.vendor_id, req.sent_at, req.ack_deadline, req.ship_deadline, a.ack_at, a.ship_at,
               COALESCE(a.rejected, false) OR req.status = 'rejected' AS rejected,
               COALESCE(a.backordered, false) OR req.status = 'backordered' AS backordered,
               k.request_id IS NOT NULL AS cancelled,
               -- Asked back from the vendor: an answer it never sent is not late (it was told not to).
               req.status IN ('cancel_requested', 'cancelled') AS withdrawn
          FROM req LEFT JOIN answers a ON a.request_id = req.request_id LEFT JOIN cancelled k ON k.request_id = req.request_id
      ),
      windows AS (SELECT unnest(${[...SCORECARD_WINDOWS]}::int[]) AS days),
      cards AS (
        SELECT req.vendor_id, w.days,
               count(*)::int AS pos_sent,
               count(*) FILTER (WHERE req.ack_at IS NOT NULL OR (req.ack_deadline <= ${now} AND NOT req.withdrawn))::int AS ack_due,
               count(*) FILTER (WHERE req.ack_at <= req.ack_deadline)::int AS ack_on_time,
               count(*) FILTER (WHERE req.ship_at IS NOT NULL OR (req.ship_deadline <= ${now} AND NOT req.withdrawn))::int AS ship_due,
               count(*) FILTER (WHERE req.ship_at <= req.ship_deadline)::int AS ship_on_time,
               round((percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM req.ship_at - req.sent_at) / 3600)
                      FILTER (WHERE req.ship_at IS NOT NULL))::numeric, 1) AS median_hours_to_ship,
               count(*) FILTER (WHERE req.rejected)::int AS rejected_lines,
               count(*) FILTER (WHERE req.backordered)::int AS backordered_lines,
               count(*) FILTER (WHERE req.cancelled)::int AS cancelled_lines
          FROM scored req JOIN windows w ON req.sent_at >= ${now}::timestamptz - make_interval(days => w.days)
         GROUP BY req.vendor_id, w.days
      ),
      -- Vendors archived or deleted since their last scorecard lose it (in the same statement, so readers never see a gap).
      gone AS (
        DELETE FROM vendor_scorecard s
         WHERE NOT EXISTS (SELECT 1 FROM dropship_vendor v WHERE v.id = s.vendor_id AND v.archived_at IS NULL)
            OR s.window_days <> ALL (${[...SCORECARD_WINDOWS]}::int[])
        RETURNING 1
      )
      INSERT INTO vendor_scorecard (vendor_id, window_days, pos_sent, ack_due, ack_on_time, ship_due, ship_on_time, median_hours_to_ship,
                                    rejected_lines, backordered_lines, cancelled_lines, invoice_mismatches, refused_files, computed_at)
      SELECT v.id, w.days, COALESCE(c.pos_sent, 0), COALESCE(c.ack_due, 0), COALESCE(c.ack_on_time, 0), COALESCE(c.ship_due, 0),
             COALESCE(c.ship_on_time, 0), c.median_hours_to_ship, COALESCE(c.rejected_lines, 0), COALESCE(c.backordered_lines, 0),
             COALESCE(c.cancelled_lines, 0),
             (SELECT count(*)::int FROM dropship_invoice_check i
               WHERE i.vendor_id = v.id AND i.status = 'mismatch' AND i.created_at >= ${now}::timestamptz - make_interval(days => w.days)),
             (SELECT count(*)::int FROM transmission t
               WHERE t.vendor_id = v.id AND t.direction = 'in' AND t.status = 'failed' AND t.created_at >= ${now}::timestamptz - make_interval(days => w.days)),
             ${now}
        FROM dropship_vendor v CROSS JOIN windows w
        LEFT JOIN cards c ON c.vendor_id = v.id AND c.days = w.days
       WHERE v.archived_at IS NULL
      ON CONFLICT (vendor_id, window_days) DO UPDATE SET
        pos_sent = EXCLUDED.pos_sent, ack_due = EXCLUDED.ack_due, ack_on_time = EXCLUDED.ack_on_time, ship_due = EXCLUDED.ship_due,
        ship_on_time = EXCLUDED.ship_on_time, median_hours_to_ship = EXCLUDED.median_hours_to_ship, rejected_lines = EXCLUDED.rejected_lines,
        backordered_lines = EXCLUDED.backordered_lines, cancelled_lines = EXCLUDED.cancelled_lines,
        invoice_mismatches = EXCLUDED.invoice_mismatches, refused_files = EXCLUDED.refused_files, computed_at = EXCLUDED.computed_at`;
}

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/** A vendor's scorecards, 30 days first (empty until the first refresh). */
export async function vendorScorecards(vendorId: number): Promise<Scorecard[]> {
  const rows = await prisma.vendorScorecard.findMany({ where: { vendor_id: vendorId }, orderBy: { window_days: "asc" } });
  return rows.map(scorecardOf);
}

export function scorecardOf(row: {
  window_days: number;
  pos_sent: number;
  ack_due: number;
  ack_on_time: number;
  ship_due: number;
  ship_on_time: number;
  median_hours_to_ship: { toString(): string } | null;
  rejected_lines: number;
  backordered_lines: number;
  cancelled_lines: number;
  invoice_mismatches: number;
  refused_files: number;
  computed_at: Date;
}): Scorecard {
  return {
    window_days: row.window_days,
    pos_sent: row.pos_sent,
    acknowledged_pct: share(row.ack_on_time, row.ack_due),
    on_time_pct: share(row.ship_on_time, row.ship_due),
    median_hours_to_ship: row.median_hours_to_ship === null ? null : Number(row.median_hours_to_ship.toString()),
    rejected_lines: row.rejected_lines,
    backordered_lines: row.backordered_lines,
    cancelled_lines: row.cancelled_lines,
    invoice_mismatches: row.invoice_mismatches,
    refused_files: row.refused_files,
    computed_at: row.computed_at.toISOString(),
  };
}
