-- AlterTable
ALTER TABLE "special_order_error" ADD COLUMN     "error_code" JSONB;

