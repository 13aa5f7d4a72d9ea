-- Incoming files are told apart by delivery, not by content (D59): the same
-- bytes may come again as a new file (an 846 back to yesterday's stock).

-- DropIndex (written by prisma migrate diff)
DROP INDEX "transmission_vendor_id_direction_content_hash_key";

-- AlterTable (written by prisma migrate diff)
ALTER TABLE "transmission" ADD COLUMN     "released_at" TIMESTAMPTZ(3),
ADD COLUMN     "released_to" TEXT,
ADD COLUMN     "remote_modified_at" TIMESTAMPTZ(3);

-- CreateIndex (written by prisma migrate diff)
CREATE INDEX "transmission_direction_remote_path_idx" ON "transmission"("direction", "remote_path");

-- CreateIndex (written by prisma migrate diff)
CREATE INDEX "transmission_direction_released_to_idx" ON "transmission"("direction", "released_to");

-- Written by hand: Prisma cannot express a partial unique index. Outgoing
-- files keep their uniqueness on (vendor, direction, hash of name and
-- content): storePreparedFile's ON CONFLICT DO NOTHING relies on it.
CREATE UNIQUE INDEX "transmission_outgoing_content_key" ON "transmission"("vendor_id", "direction", "content_hash") WHERE "direction" = 'out';

-- Written by hand: incoming files stored before this migration. Whether their
-- archive or delete succeeded was only written in the drop-ship log, so they
-- count as released when stored (the usual case); a file whose release had
-- failed and that is still in its folder is taken once more, as a new
-- delivery. Where the log says where a vendor's file was archived, keep it, so
-- Drop Ship Tools still know archive/<name> as that file.
UPDATE "transmission" SET "released_at" = "created_at" WHERE "direction" = 'in';
UPDATE "transmission" AS t
   SET "released_to" = substring(l."message" from 'archived to (.+) on the vendor''s server\.')
  FROM "dropship_log" AS l
 WHERE l."transmission_id" = t."id" AND t."direction" = 'in' AND l."action" = 'receive_file'
   AND l."message" ~ 'archived to .+ on the vendor''s server\.';
