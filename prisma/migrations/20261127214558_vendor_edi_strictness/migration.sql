-- AlterTable
ALTER TABLE "dropship_vendor" ADD COLUMN     "edi_strictness" TEXT NOT NULL DEFAULT 'lenient';

