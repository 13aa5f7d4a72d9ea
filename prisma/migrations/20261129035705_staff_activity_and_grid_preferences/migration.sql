-- CreateTable
CREATE TABLE "staff_activity" (
    "id" SERIAL NOT NULL,
    "staff" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "record_type" TEXT,
    "record_id" TEXT,
    "order_increment_id" TEXT,
    "outcome" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_activity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_grid_preference" (
    "staff" TEXT NOT NULL,
    "grid_id" TEXT NOT NULL,
    "hidden_columns" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "staff_grid_preference_pkey" PRIMARY KEY ("staff","grid_id")
);

-- CreateIndex
CREATE INDEX "staff_activity_created_at_idx" ON "staff_activity"("created_at");

-- CreateIndex
CREATE INDEX "staff_activity_staff_id_idx" ON "staff_activity"("staff", "id");

-- CreateIndex
CREATE INDEX "staff_activity_action_id_idx" ON "staff_activity"("action", "id");

-- CreateIndex
CREATE INDEX "staff_activity_record_type_record_id_idx" ON "staff_activity"("record_type", "record_id");

-- CreateIndex
CREATE INDEX "staff_activity_order_increment_id_idx" ON "staff_activity"("order_increment_id");

