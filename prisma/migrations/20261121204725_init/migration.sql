-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_grid" (
    "id" SERIAL NOT NULL,
    "order_id" TEXT NOT NULL,
    "shopify_order_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "shopify_updated_at" TIMESTAMPTZ(3),
    "concat_bill_to_name" TEXT,
    "concat_ship_to_name" TEXT,
    "grand_total_purchased" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "select_skus" TEXT,
    "magento_status" TEXT,
    "fulfillment_status" TEXT,
    "financial_status" TEXT,
    "concat_billing_address" TEXT,
    "concat_shipping_address" TEXT,
    "customer_email" TEXT,
    "marketplace_source" TEXT,
    "marketplace_order_id" TEXT,
    "ca_site_order_id" TEXT,
    "ca_order_id" TEXT,
    "refer_source_name" TEXT,
    "allocated_sources" TEXT,
    "gift_card_used" INTEGER NOT NULL DEFAULT 0,
    "shipping_description" TEXT,
    "customer_notes" TEXT,
    "auto_assignment_eligible" INTEGER NOT NULL DEFAULT 0,
    "total_shippable_qty_ordered" INTEGER NOT NULL DEFAULT 0,
    "total_shipped" INTEGER NOT NULL DEFAULT 0,
    "total_assigned" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "order_grid_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_item" (
    "item_id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "qty_ordered" INTEGER NOT NULL,
    "qty_shipped" INTEGER NOT NULL DEFAULT 0,
    "qty_refunded" INTEGER NOT NULL DEFAULT 0,
    "qty_canceled" INTEGER NOT NULL DEFAULT 0,
    "price" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "is_shippable" BOOLEAN NOT NULL DEFAULT true,
    "created_time" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "order_item_pkey" PRIMARY KEY ("item_id")
);

-- CreateTable
CREATE TABLE "inventory_source" (
    "source_code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "enabled" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inventory_source_pkey" PRIMARY KEY ("source_code")
);

-- CreateTable
CREATE TABLE "inventory_source_item" (
    "source_code" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inventory_source_item_pkey" PRIMARY KEY ("source_code","sku")
);

-- CreateTable
CREATE TABLE "assignment" (
    "id" SERIAL NOT NULL,
    "order_increment_id" TEXT NOT NULL,
    "shopify_order_id" TEXT,
    "item_id" INTEGER NOT NULL,
    "product_sku" TEXT NOT NULL,
    "qty_assigned" INTEGER NOT NULL,
    "store_id" TEXT NOT NULL,
    "dropshipper_name" TEXT,
    "assign_status" INTEGER NOT NULL DEFAULT 1,
    "form_number" TEXT,
    "purchase_order" TEXT,
    "customer_note" TEXT,
    "created_time" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "update_time" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dnh_transfer" (
    "id" SERIAL NOT NULL,
    "assignment_id" INTEGER NOT NULL,
    "order_increment_id" TEXT NOT NULL,
    "shopify_order_id" TEXT,
    "item_id" INTEGER NOT NULL,
    "product_sku" TEXT NOT NULL,
    "qty_assigned" INTEGER NOT NULL,
    "store_id" TEXT NOT NULL,
    "transfer_num" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dnh_transfer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dropship_vendor" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "enabled" INTEGER NOT NULL DEFAULT 1,
    "test_mode" INTEGER NOT NULL DEFAULT 0,
    "is_legacy" INTEGER NOT NULL DEFAULT 0,
    "archived_at" TIMESTAMPTZ(3),
    "transfer_mechanism_id" INTEGER NOT NULL DEFAULT 1,
    "sftp_user" TEXT,
    "sftp_pass" TEXT,
    "sftp_host" TEXT,
    "sftp_port" INTEGER,
    "sftp_host_key" TEXT,
    "sftp_cancellation_put_folder" TEXT,
    "sftp_cancellation_pull_folder" TEXT,
    "sftp_incoming_folder" TEXT,
    "sftp_outcoming_folder" TEXT,
    "edi_identifier" TEXT,
    "edi_qualifier" TEXT,
    "test_identifier" TEXT,
    "test_qualifier" TEXT,
    "input_segmenter" TEXT,
    "input_delimiter" TEXT,
    "output_segmenter" TEXT,
    "output_delimiter" TEXT,
    "edi_format" INTEGER NOT NULL DEFAULT 1,
    "regex_format" TEXT,
    "sort_files_by_file_contents" INTEGER NOT NULL DEFAULT 0,
    "is_archiving_files" INTEGER NOT NULL DEFAULT 1,
    "use_cost" INTEGER NOT NULL DEFAULT 0,
    "997_enabled" INTEGER NOT NULL DEFAULT 1,
    "997_format" TEXT,
    "997_segments" TEXT,
    "997_file_contents_regex" TEXT,
    "850_format" TEXT,
    "850_segments" TEXT,
    "855_format" TEXT,
    "855_segments" TEXT,
    "856_format" TEXT,
    "856_segments" TEXT,
    "856_file_contents_regex" TEXT,
    "846_enabled" INTEGER NOT NULL DEFAULT 0,
    "unwrap_846" INTEGER NOT NULL DEFAULT 0,
    "846_format" TEXT,
    "846_as400_filepath" TEXT,
    "846_file_contents_regex" TEXT,
    "810_enabled" INTEGER NOT NULL DEFAULT 0,
    "810_format" TEXT,
    "810_segments" TEXT,
    "810_as400_filepath" TEXT,
    "810_file_contents_regex" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dropship_vendor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dropship_request" (
    "request_id" SERIAL NOT NULL,
    "vendor_id" INTEGER NOT NULL,
    "vendor_name" TEXT NOT NULL,
    "assignment_id" INTEGER NOT NULL,
    "po_number" TEXT NOT NULL,
    "order_increment_id" TEXT NOT NULL,
    "item_sku" TEXT NOT NULL,
    "qty" INTEGER NOT NULL,
    "unit_cost" DECIMAL(12,2),
    "ship_name_first" TEXT NOT NULL,
    "ship_name_last" TEXT NOT NULL,
    "ship_address" TEXT NOT NULL,
    "ship_city" TEXT NOT NULL,
    "ship_state" TEXT NOT NULL,
    "ship_zip" TEXT NOT NULL,
    "country_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "needs_processing" BOOLEAN NOT NULL DEFAULT true,
    "transmission_id" INTEGER,
    "sent_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dropship_request_pkey" PRIMARY KEY ("request_id")
);

-- CreateTable
CREATE TABLE "dropship_response" (
    "id" SERIAL NOT NULL,
    "request_id" INTEGER,
    "vendor_id" INTEGER NOT NULL,
    "vendor_name" TEXT NOT NULL,
    "assignment_id" INTEGER,
    "po_number" TEXT NOT NULL,
    "order_increment_id" TEXT,
    "item_sku" TEXT,
    "qty" INTEGER,
    "tracking_number" TEXT,
    "tracking_carrier" TEXT,
    "response_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "needs_processing" BOOLEAN NOT NULL DEFAULT true,
    "transmission_id" INTEGER,
    "processed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dropship_response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dropship_log" (
    "id" SERIAL NOT NULL,
    "vendor_id" INTEGER,
    "vendor_name" TEXT,
    "action" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "po_number" TEXT,
    "order_increment_id" TEXT,
    "item_sku" TEXT,
    "qty" INTEGER,
    "tracking_number" TEXT,
    "file_name" TEXT,
    "transmission_id" INTEGER,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dropship_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transmission" (
    "id" SERIAL NOT NULL,
    "vendor_id" INTEGER,
    "partner" TEXT NOT NULL DEFAULT 'vendor',
    "direction" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "remote_path" TEXT,
    "transaction_set" TEXT,
    "interchange_control_number" TEXT,
    "group_control_number" TEXT,
    "transaction_control_numbers" TEXT[],
    "content_hash" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "error_segment" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "transmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eod_report_row" (
    "id" SERIAL NOT NULL,
    "sales_date" DATE NOT NULL,
    "store_id" TEXT NOT NULL,
    "order_increment_id" TEXT NOT NULL,
    "item_sku" TEXT NOT NULL,
    "qty" INTEGER NOT NULL,
    "amount" DECIMAL(12,2) NOT NULL,
    "tax" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "shipping" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "record_type" TEXT NOT NULL,
    "batch_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "eod_report_row_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eod_batch" (
    "id" SERIAL NOT NULL,
    "file_name" TEXT NOT NULL,
    "sales_date" DATE NOT NULL,
    "row_count" INTEGER NOT NULL,
    "total" DECIMAL(14,2) NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "exported_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "eod_batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "cron_expression" TEXT NOT NULL,
    "enabled" INTEGER NOT NULL DEFAULT 1,
    "last_started_at" TIMESTAMPTZ(3),
    "last_finished_at" TIMESTAMPTZ(3),
    "last_failed_at" TIMESTAMPTZ(3),
    "last_skipped_at" TIMESTAMPTZ(3),

    CONSTRAINT "feed_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed_log" (
    "id" SERIAL NOT NULL,
    "feed_name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "meta" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "feed_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales_record" (
    "id" SERIAL NOT NULL,
    "record_type" TEXT NOT NULL,
    "order_increment_id" TEXT NOT NULL,
    "shopify_order_id" TEXT,
    "store_id" TEXT,
    "amount" DECIMAL(12,2) NOT NULL,
    "record_date" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sales_record_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realtime_sales_log" (
    "id" SERIAL NOT NULL,
    "event" TEXT NOT NULL,
    "order_increment_id" TEXT,
    "shopify_order_id" TEXT NOT NULL,
    "amount" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "message" TEXT,
    "payload" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "realtime_sales_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "realtime_shipping_log" (
    "id" SERIAL NOT NULL,
    "order_increment_id" TEXT,
    "shopify_order_id" TEXT NOT NULL,
    "tracking_number" TEXT,
    "tracking_carrier" TEXT,
    "status" TEXT NOT NULL,
    "message" TEXT,
    "payload" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "realtime_shipping_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "special_order" (
    "id" SERIAL NOT NULL,
    "order_id" TEXT,
    "shopify_order_id" TEXT,
    "store_ticket" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "employee_number" TEXT,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT,
    "customer_phone" TEXT,
    "customer_address_1" TEXT,
    "customer_address_2" TEXT,
    "customer_address_city" TEXT,
    "customer_address_state_code" TEXT,
    "customer_address_zip" TEXT,
    "items" JSONB NOT NULL DEFAULT '[]',
    "shipping_cost" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "bill_to_name" TEXT,
    "ship_to_name" TEXT,
    "grand_total_base" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "grand_total_purchased" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "shipping_description" TEXT,
    "log_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "special_order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "special_order_error" (
    "id" SERIAL NOT NULL,
    "special_order_id" INTEGER NOT NULL,
    "store_ticket" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "employee_number" TEXT,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT,
    "customer_phone" TEXT,
    "error_message" TEXT NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "special_order_error_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "special_order_log" (
    "id" SERIAL NOT NULL,
    "file_path" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "special_order_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product" (
    "id" SERIAL NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "as400_category_id" TEXT,
    "shopify_product_id" TEXT,
    "shopify_variant_id" TEXT,
    "price" DECIMAL(12,2) NOT NULL DEFAULT 0,
    "cost" DECIMAL(12,2),
    "shopify_tags" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_api_error" (
    "id" SERIAL NOT NULL,
    "sku" TEXT,
    "operation" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "payload" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_api_error_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_api_operation" (
    "id" SERIAL NOT NULL,
    "sku" TEXT,
    "operation" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" JSONB,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "product_api_operation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "category_tags_mapping" (
    "id" SERIAL NOT NULL,
    "as400_category_id" TEXT NOT NULL,
    "shopify_tags" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "category_tags_mapping_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_grid_order_id_key" ON "order_grid"("order_id");

-- CreateIndex
CREATE INDEX "order_grid_created_at_idx" ON "order_grid"("created_at");

-- CreateIndex
CREATE INDEX "order_grid_updated_at_idx" ON "order_grid"("updated_at");

-- CreateIndex
CREATE INDEX "order_grid_shopify_updated_at_idx" ON "order_grid"("shopify_updated_at");

-- CreateIndex
CREATE INDEX "order_grid_shopify_order_id_idx" ON "order_grid"("shopify_order_id");

-- CreateIndex
CREATE INDEX "order_grid_customer_email_idx" ON "order_grid"("customer_email");

-- CreateIndex
CREATE INDEX "order_grid_magento_status_created_at_idx" ON "order_grid"("magento_status", "created_at");

-- CreateIndex
CREATE INDEX "order_grid_marketplace_source_idx" ON "order_grid"("marketplace_source");

-- CreateIndex
CREATE INDEX "order_grid_marketplace_order_id_idx" ON "order_grid"("marketplace_order_id");

-- CreateIndex
CREATE INDEX "order_grid_ca_site_order_id_idx" ON "order_grid"("ca_site_order_id");

-- CreateIndex
CREATE INDEX "order_grid_ca_order_id_idx" ON "order_grid"("ca_order_id");

-- CreateIndex
CREATE INDEX "order_grid_refer_source_name_idx" ON "order_grid"("refer_source_name");

-- CreateIndex
CREATE INDEX "order_grid_gift_card_used_idx" ON "order_grid"("gift_card_used");

-- CreateIndex
CREATE INDEX "order_grid_grand_total_purchased_idx" ON "order_grid"("grand_total_purchased");

-- CreateIndex
CREATE INDEX "order_item_order_id_idx" ON "order_item"("order_id");

-- CreateIndex
CREATE INDEX "order_item_sku_idx" ON "order_item"("sku");

-- CreateIndex
CREATE INDEX "inventory_source_type_name_idx" ON "inventory_source"("type", "name");

-- CreateIndex
CREATE INDEX "inventory_source_item_sku_idx" ON "inventory_source_item"("sku");

-- CreateIndex
CREATE INDEX "assignment_assign_status_id_idx" ON "assignment"("assign_status", "id");

-- CreateIndex
CREATE INDEX "assignment_order_increment_id_idx" ON "assignment"("order_increment_id");

-- CreateIndex
CREATE INDEX "assignment_shopify_order_id_idx" ON "assignment"("shopify_order_id");

-- CreateIndex
CREATE INDEX "assignment_item_id_idx" ON "assignment"("item_id");

-- CreateIndex
CREATE INDEX "assignment_product_sku_idx" ON "assignment"("product_sku");

-- CreateIndex
CREATE INDEX "assignment_store_id_idx" ON "assignment"("store_id");

-- CreateIndex
CREATE INDEX "assignment_dropshipper_name_idx" ON "assignment"("dropshipper_name");

-- CreateIndex
CREATE INDEX "assignment_form_number_idx" ON "assignment"("form_number");

-- CreateIndex
CREATE INDEX "assignment_purchase_order_idx" ON "assignment"("purchase_order");

-- CreateIndex
CREATE INDEX "assignment_created_time_idx" ON "assignment"("created_time");

-- CreateIndex
CREATE INDEX "dnh_transfer_assignment_id_idx" ON "dnh_transfer"("assignment_id");

-- CreateIndex
CREATE INDEX "dnh_transfer_created_at_idx" ON "dnh_transfer"("created_at");

-- CreateIndex
CREATE INDEX "dropship_vendor_name_idx" ON "dropship_vendor"("name");

-- CreateIndex
CREATE INDEX "dropship_vendor_enabled_idx" ON "dropship_vendor"("enabled");

-- CreateIndex
CREATE INDEX "dropship_vendor_test_mode_idx" ON "dropship_vendor"("test_mode");

-- CreateIndex
CREATE INDEX "dropship_vendor_store_id_idx" ON "dropship_vendor"("store_id");

-- CreateIndex
CREATE INDEX "dropship_request_vendor_id_status_idx" ON "dropship_request"("vendor_id", "status");

-- CreateIndex
CREATE INDEX "dropship_request_assignment_id_idx" ON "dropship_request"("assignment_id");

-- CreateIndex
CREATE INDEX "dropship_request_po_number_idx" ON "dropship_request"("po_number");

-- CreateIndex
CREATE INDEX "dropship_request_order_increment_id_idx" ON "dropship_request"("order_increment_id");

-- CreateIndex
CREATE INDEX "dropship_request_item_sku_idx" ON "dropship_request"("item_sku");

-- CreateIndex
CREATE INDEX "dropship_request_status_request_id_idx" ON "dropship_request"("status", "request_id");

-- CreateIndex
CREATE INDEX "dropship_response_vendor_id_status_idx" ON "dropship_response"("vendor_id", "status");

-- CreateIndex
CREATE INDEX "dropship_response_request_id_idx" ON "dropship_response"("request_id");

-- CreateIndex
CREATE INDEX "dropship_response_po_number_idx" ON "dropship_response"("po_number");

-- CreateIndex
CREATE INDEX "dropship_response_order_increment_id_idx" ON "dropship_response"("order_increment_id");

-- CreateIndex
CREATE INDEX "dropship_response_tracking_number_idx" ON "dropship_response"("tracking_number");

-- CreateIndex
CREATE INDEX "dropship_response_needs_processing_idx" ON "dropship_response"("needs_processing");

-- CreateIndex
CREATE INDEX "dropship_log_vendor_name_idx" ON "dropship_log"("vendor_name");

-- CreateIndex
CREATE INDEX "dropship_log_action_idx" ON "dropship_log"("action");

-- CreateIndex
CREATE INDEX "dropship_log_status_idx" ON "dropship_log"("status");

-- CreateIndex
CREATE INDEX "dropship_log_po_number_idx" ON "dropship_log"("po_number");

-- CreateIndex
CREATE INDEX "dropship_log_order_increment_id_idx" ON "dropship_log"("order_increment_id");

-- CreateIndex
CREATE INDEX "dropship_log_item_sku_idx" ON "dropship_log"("item_sku");

-- CreateIndex
CREATE INDEX "dropship_log_created_at_idx" ON "dropship_log"("created_at");

-- CreateIndex
CREATE INDEX "transmission_vendor_id_direction_status_idx" ON "transmission"("vendor_id", "direction", "status");

-- CreateIndex
CREATE INDEX "transmission_interchange_control_number_idx" ON "transmission"("interchange_control_number");

-- CreateIndex
CREATE INDEX "transmission_transaction_set_idx" ON "transmission"("transaction_set");

-- CreateIndex
CREATE INDEX "transmission_created_at_idx" ON "transmission"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "transmission_vendor_id_direction_content_hash_key" ON "transmission"("vendor_id", "direction", "content_hash");

-- CreateIndex
CREATE INDEX "eod_report_row_sales_date_id_idx" ON "eod_report_row"("sales_date", "id");

-- CreateIndex
CREATE INDEX "eod_report_row_store_id_idx" ON "eod_report_row"("store_id");

-- CreateIndex
CREATE INDEX "eod_report_row_order_increment_id_idx" ON "eod_report_row"("order_increment_id");

-- CreateIndex
CREATE INDEX "eod_report_row_item_sku_idx" ON "eod_report_row"("item_sku");

-- CreateIndex
CREATE INDEX "eod_report_row_record_type_idx" ON "eod_report_row"("record_type");

-- CreateIndex
CREATE INDEX "eod_report_row_batch_id_idx" ON "eod_report_row"("batch_id");

-- CreateIndex
CREATE UNIQUE INDEX "eod_batch_file_name_key" ON "eod_batch"("file_name");

-- CreateIndex
CREATE INDEX "eod_batch_sales_date_idx" ON "eod_batch"("sales_date");

-- CreateIndex
CREATE INDEX "eod_batch_status_idx" ON "eod_batch"("status");

-- CreateIndex
CREATE UNIQUE INDEX "feed_name_key" ON "feed"("name");

-- CreateIndex
CREATE INDEX "feed_last_started_at_idx" ON "feed"("last_started_at");

-- CreateIndex
CREATE INDEX "feed_log_feed_name_created_at_idx" ON "feed_log"("feed_name", "created_at");

-- CreateIndex
CREATE INDEX "feed_log_type_created_at_idx" ON "feed_log"("type", "created_at");

-- CreateIndex
CREATE INDEX "feed_log_created_at_idx" ON "feed_log"("created_at");

-- CreateIndex
CREATE INDEX "sales_record_record_date_record_type_idx" ON "sales_record"("record_date", "record_type");

-- CreateIndex
CREATE INDEX "sales_record_order_increment_id_idx" ON "sales_record"("order_increment_id");

-- CreateIndex
CREATE INDEX "realtime_sales_log_shopify_order_id_idx" ON "realtime_sales_log"("shopify_order_id");

-- CreateIndex
CREATE INDEX "realtime_sales_log_order_increment_id_idx" ON "realtime_sales_log"("order_increment_id");

-- CreateIndex
CREATE INDEX "realtime_sales_log_event_idx" ON "realtime_sales_log"("event");

-- CreateIndex
CREATE INDEX "realtime_sales_log_status_idx" ON "realtime_sales_log"("status");

-- CreateIndex
CREATE INDEX "realtime_sales_log_created_at_idx" ON "realtime_sales_log"("created_at");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_shopify_order_id_idx" ON "realtime_shipping_log"("shopify_order_id");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_order_increment_id_idx" ON "realtime_shipping_log"("order_increment_id");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_tracking_number_idx" ON "realtime_shipping_log"("tracking_number");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_status_idx" ON "realtime_shipping_log"("status");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_created_at_idx" ON "realtime_shipping_log"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "special_order_order_id_key" ON "special_order"("order_id");

-- CreateIndex
CREATE INDEX "special_order_status_order_id_idx" ON "special_order"("status", "order_id");

-- CreateIndex
CREATE INDEX "special_order_shopify_order_id_idx" ON "special_order"("shopify_order_id");

-- CreateIndex
CREATE INDEX "special_order_customer_email_idx" ON "special_order"("customer_email");

-- CreateIndex
CREATE UNIQUE INDEX "special_order_store_id_store_ticket_key" ON "special_order"("store_id", "store_ticket");

-- CreateIndex
CREATE INDEX "special_order_error_special_order_id_idx" ON "special_order_error"("special_order_id");

-- CreateIndex
CREATE INDEX "special_order_error_store_ticket_idx" ON "special_order_error"("store_ticket");

-- CreateIndex
CREATE INDEX "special_order_error_resolved_at_id_idx" ON "special_order_error"("resolved_at", "id");

-- CreateIndex
CREATE INDEX "special_order_log_created_at_idx" ON "special_order_log"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "product_sku_key" ON "product"("sku");

-- CreateIndex
CREATE INDEX "product_name_idx" ON "product"("name");

-- CreateIndex
CREATE INDEX "product_as400_category_id_idx" ON "product"("as400_category_id");

-- CreateIndex
CREATE INDEX "product_status_idx" ON "product"("status");

-- CreateIndex
CREATE INDEX "product_api_error_created_at_idx" ON "product_api_error"("created_at");

-- CreateIndex
CREATE INDEX "product_api_error_sku_idx" ON "product_api_error"("sku");

-- CreateIndex
CREATE INDEX "product_api_error_operation_idx" ON "product_api_error"("operation");

-- CreateIndex
CREATE INDEX "product_api_operation_created_at_idx" ON "product_api_operation"("created_at");

-- CreateIndex
CREATE INDEX "product_api_operation_sku_idx" ON "product_api_operation"("sku");

-- CreateIndex
CREATE INDEX "product_api_operation_operation_idx" ON "product_api_operation"("operation");

-- CreateIndex
CREATE INDEX "product_api_operation_status_idx" ON "product_api_operation"("status");

-- CreateIndex
CREATE UNIQUE INDEX "category_tags_mapping_as400_category_id_key" ON "category_tags_mapping"("as400_category_id");

-- AddForeignKey
ALTER TABLE "order_item" ADD CONSTRAINT "order_item_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "order_grid"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_source_item" ADD CONSTRAINT "inventory_source_item_source_code_fkey" FOREIGN KEY ("source_code") REFERENCES "inventory_source"("source_code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "order_item"("item_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dnh_transfer" ADD CONSTRAINT "dnh_transfer_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_request" ADD CONSTRAINT "dropship_request_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_request" ADD CONSTRAINT "dropship_request_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_request" ADD CONSTRAINT "dropship_request_transmission_id_fkey" FOREIGN KEY ("transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_response" ADD CONSTRAINT "dropship_response_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_response" ADD CONSTRAINT "dropship_response_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "dropship_request"("request_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_response" ADD CONSTRAINT "dropship_response_transmission_id_fkey" FOREIGN KEY ("transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_log" ADD CONSTRAINT "dropship_log_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dropship_log" ADD CONSTRAINT "dropship_log_transmission_id_fkey" FOREIGN KEY ("transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transmission" ADD CONSTRAINT "transmission_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eod_report_row" ADD CONSTRAINT "eod_report_row_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "eod_batch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "special_order" ADD CONSTRAINT "special_order_log_id_fkey" FOREIGN KEY ("log_id") REFERENCES "special_order_log"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "special_order_error" ADD CONSTRAINT "special_order_error_special_order_id_fkey" FOREIGN KEY ("special_order_id") REFERENCES "special_order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

