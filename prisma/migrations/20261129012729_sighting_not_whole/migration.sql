-- AlterTable
ALTER TABLE "incoming_file_sighting" ADD COLUMN     "not_whole" BOOLEAN NOT NULL DEFAULT false;

