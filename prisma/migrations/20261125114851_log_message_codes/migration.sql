-- AlterTable
ALTER TABLE "dropship_log" ADD COLUMN     "message_code" JSONB;

-- AlterTable
ALTER TABLE "realtime_sales_log" ADD COLUMN     "message_code" JSONB;

-- AlterTable
ALTER TABLE "realtime_shipping_log" ADD COLUMN     "message_code" JSONB;

-- AlterTable
ALTER TABLE "special_order_log" ADD COLUMN     "summary_code" JSONB;

