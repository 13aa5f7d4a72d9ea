// What an assignment's status means, in one place: the screens' values and the
// SQL every count of held quantities uses (D225).
import { Prisma } from "~/db/generated/client";

/** assign_status as the drop-ship flow and Daily Sales read it (spec 001 §3). */
export const ASSIGN_STATUS = { pending: 1, processing: 2, sent: 3, complete: 4, cancel_requested: 5, cancelled: 6, cancel_refused: 7 } as const;
export const ASSIGN_STATUS_VALUES = ["1", "2", "3", "4", "5", "6", "7"] as const;
/** Orders the order system has finished with: nothing of them is assigned any more. */
export const FINISHED_ORDER_STATUSES = ["complete", "closed", "canceled", "fraud"] as const;

/**
 * SQL: the assignment `a` still holds its quantity: no DNH transfer released it, and the vendor that
 * had it was not asked to cancel it (Cancel Requested, Cancelled); a refused cancellation holds it again (D225).
 */
export const ACTIVE_ASSIGNMENT = Prisma.sql`a.assign_status NOT IN (5, 6) AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)`;
