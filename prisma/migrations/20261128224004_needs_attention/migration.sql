-- AlterTable
ALTER TABLE "dropship_vendor" ADD COLUMN     "invoice_tolerance_percent" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "notify_customer" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "sla_855_hours" INTEGER,
ADD COLUMN     "sla_856_hours" INTEGER,
ADD COLUMN     "sla_997_hours" INTEGER;

-- CreateTable
CREATE TABLE "app_setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_by" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "app_setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "attention_item" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "vendor_id" INTEGER,
    "vendor_name" TEXT,
    "reason" TEXT NOT NULL,
    "reason_code" JSONB NOT NULL,
    "detail_code" JSONB,
    "link" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "dismissed_at" TIMESTAMPTZ(3),
    "dismissed_by" TEXT,
    "dismiss_note" TEXT,

    CONSTRAINT "attention_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attention_alert" (
    "id" SERIAL NOT NULL,
    "item_id" INTEGER,
    "digest_date" DATE,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attention_alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "partner_contact" (
    "partner" TEXT NOT NULL,
    "vendor_id" INTEGER,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "first_failed_at" TIMESTAMPTZ(3),
    "last_failed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_ok_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "partner_contact_pkey" PRIMARY KEY ("partner")
);

-- CreateTable
CREATE TABLE "dropship_invoice_check" (
    "id" SERIAL NOT NULL,
    "vendor_id" INTEGER NOT NULL,
    "transmission_id" INTEGER,
    "invoice_number" TEXT NOT NULL,
    "po_number" TEXT NOT NULL,
    "request_id" INTEGER,
    "line_number" TEXT,
    "sku" TEXT,
    "sku_ordered" TEXT,
    "qty_invoiced" INTEGER,
    "qty_shipped" INTEGER,
    "unit_cost_invoiced" DECIMAL(12,4),
    "unit_cost_ordered" DECIMAL(12,4),
    "line_charges" DECIMAL(12,2),
    "invoice_charges" DECIMAL(12,2),
    "problems" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dropship_invoice_check_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "attention_item_resolved_at_dismissed_at_since_idx" ON "attention_item"("resolved_at", "dismissed_at", "since");

-- CreateIndex
CREATE INDEX "attention_item_kind_resolved_at_idx" ON "attention_item"("kind", "resolved_at");

-- CreateIndex
CREATE INDEX "attention_item_vendor_id_idx" ON "attention_item"("vendor_id");

-- CreateIndex
CREATE INDEX "attention_alert_status_next_attempt_at_idx" ON "attention_alert"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "attention_alert_item_id_channel_recipient_key" ON "attention_alert"("item_id", "channel", "recipient");

-- CreateIndex
CREATE UNIQUE INDEX "attention_alert_digest_date_channel_recipient_key" ON "attention_alert"("digest_date", "channel", "recipient");

-- CreateIndex
CREATE INDEX "dropship_invoice_check_status_resolved_at_idx" ON "dropship_invoice_check"("status", "resolved_at");

-- CreateIndex
CREATE INDEX "dropship_invoice_check_vendor_id_created_at_idx" ON "dropship_invoice_check"("vendor_id", "created_at");

-- CreateIndex
CREATE INDEX "dropship_invoice_check_po_number_idx" ON "dropship_invoice_check"("po_number");

-- CreateIndex
CREATE INDEX "dropship_invoice_check_invoice_number_idx" ON "dropship_invoice_check"("invoice_number");

-- AddForeignKey
ALTER TABLE "attention_alert" ADD CONSTRAINT "attention_alert_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "attention_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_invoice_check" ADD CONSTRAINT "dropship_invoice_check_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- By hand (Prisma cannot express it): one open item per cause (D239).
CREATE UNIQUE INDEX "attention_item_open_subject_key" ON "attention_item"("kind", "subject") WHERE "resolved_at" IS NULL;
