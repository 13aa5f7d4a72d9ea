-- AlterTable
ALTER TABLE "order_grid" ADD COLUMN     "shopify_cancelled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "dropship_vendor" ADD COLUMN     "answers_cancellations" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "cancellation_format" TEXT;

-- AlterTable
ALTER TABLE "dropship_request" ADD COLUMN     "qty_cancelled" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "vendor_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "vendor_expected_date" DATE,
ADD COLUMN     "vendor_note" TEXT;

-- CreateTable
CREATE TABLE "dropship_cancellation" (
    "id" SERIAL NOT NULL,
    "request_id" INTEGER NOT NULL,
    "vendor_id" INTEGER NOT NULL,
    "po_number" TEXT NOT NULL,
    "qty" INTEGER NOT NULL,
    "whole" BOOLEAN NOT NULL,
    "change_number" INTEGER NOT NULL,
    "cause" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "transmission_id" INTEGER,
    "answer_transmission_id" INTEGER,
    "answer_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "answer_note" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "answered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dropship_cancellation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dropship_cancellation_vendor_id_status_idx" ON "dropship_cancellation"("vendor_id", "status");

-- CreateIndex
CREATE INDEX "dropship_cancellation_request_id_idx" ON "dropship_cancellation"("request_id");

-- CreateIndex
CREATE INDEX "dropship_cancellation_transmission_id_idx" ON "dropship_cancellation"("transmission_id");

-- CreateIndex
CREATE INDEX "dropship_cancellation_status_id_idx" ON "dropship_cancellation"("status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "dropship_cancellation_po_number_change_number_key" ON "dropship_cancellation"("po_number", "change_number");

-- AddForeignKey
ALTER TABLE "dropship_cancellation" ADD CONSTRAINT "dropship_cancellation_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "dropship_request"("request_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_cancellation" ADD CONSTRAINT "dropship_cancellation_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_cancellation" ADD CONSTRAINT "dropship_cancellation_transmission_id_fkey" FOREIGN KEY ("transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_cancellation" ADD CONSTRAINT "dropship_cancellation_answer_transmission_id_fkey" FOREIGN KEY ("answer_transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

