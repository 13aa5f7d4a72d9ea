-- AlterTable
ALTER TABLE "dropship_vendor" ADD COLUMN     "incoming_max_wait_minutes" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "transmission" ADD COLUMN     "lease_feed" TEXT,
ADD COLUMN     "lease_run_id" INTEGER;

-- CreateTable
CREATE TABLE "incoming_file_sighting" (
    "id" SERIAL NOT NULL,
    "owner" TEXT NOT NULL,
    "remote_path" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "modified_at" TIMESTAMPTZ(3),
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incoming_file_sighting_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "incoming_file_sighting_owner_remote_path_key" ON "incoming_file_sighting"("owner", "remote_path");

