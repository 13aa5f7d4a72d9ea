-- AlterTable
ALTER TABLE "dropship_invoice_check" ADD COLUMN     "line_index" INTEGER;

-- Checks written before this number their file's lines in the order they were written.
UPDATE "dropship_invoice_check" c SET "line_index" = n.i
  FROM (SELECT id, row_number() OVER (PARTITION BY transmission_id ORDER BY id)::int AS i
          FROM "dropship_invoice_check" WHERE transmission_id IS NOT NULL) n
 WHERE c.id = n.id;

-- CreateIndex
CREATE UNIQUE INDEX "dropship_invoice_check_transmission_id_line_index_key" ON "dropship_invoice_check"("transmission_id", "line_index");

