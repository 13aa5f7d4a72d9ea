-- AlterTable
ALTER TABLE "assignment" ADD COLUMN     "shopify_location_at" TIMESTAMPTZ(3),
ADD COLUMN     "shopify_location_message" TEXT,
ADD COLUMN     "shopify_location_status" TEXT;

