-- AlterTable
ALTER TABLE "dropship_vendor" ADD COLUMN     "ftp_tls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "incoming_min_age_seconds" INTEGER NOT NULL DEFAULT 60;

