-- CreateTable
CREATE TABLE "vendor_scorecard" (
    "vendor_id" INTEGER NOT NULL,
    "window_days" INTEGER NOT NULL,
    "pos_sent" INTEGER NOT NULL DEFAULT 0,
    "ack_due" INTEGER NOT NULL DEFAULT 0,
    "ack_on_time" INTEGER NOT NULL DEFAULT 0,
    "ship_due" INTEGER NOT NULL DEFAULT 0,
    "ship_on_time" INTEGER NOT NULL DEFAULT 0,
    "median_hours_to_ship" DECIMAL(10,1),
    "rejected_lines" INTEGER NOT NULL DEFAULT 0,
    "backordered_lines" INTEGER NOT NULL DEFAULT 0,
    "cancelled_lines" INTEGER NOT NULL DEFAULT 0,
    "invoice_mismatches" INTEGER NOT NULL DEFAULT 0,
    "refused_files" INTEGER NOT NULL DEFAULT 0,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vendor_scorecard_pkey" PRIMARY KEY ("vendor_id","window_days")
);

