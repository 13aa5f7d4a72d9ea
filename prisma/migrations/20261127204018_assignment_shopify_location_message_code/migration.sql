-- AlterTable
ALTER TABLE "assignment" ADD COLUMN     "shopify_location_message_code" JSONB;

