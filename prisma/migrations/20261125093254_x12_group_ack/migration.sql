-- CreateTable
CREATE TABLE "x12_group_ack" (
    "id" SERIAL NOT NULL,
    "vendor_id" INTEGER NOT NULL,
    "received_id" INTEGER NOT NULL,
    "interchange_index" INTEGER NOT NULL,
    "group_index" INTEGER NOT NULL,
    "interchange_control_number" TEXT NOT NULL,
    "group_control_number" TEXT NOT NULL,
    "functional_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "ack" JSONB NOT NULL,
    "ack_transmission_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "x12_group_ack_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "x12_group_ack_vendor_id_ack_transmission_id_idx" ON "x12_group_ack"("vendor_id", "ack_transmission_id");

-- CreateIndex
CREATE INDEX "x12_group_ack_ack_transmission_id_idx" ON "x12_group_ack"("ack_transmission_id");

-- CreateIndex
CREATE UNIQUE INDEX "x12_group_ack_received_id_interchange_index_group_index_key" ON "x12_group_ack"("received_id", "interchange_index", "group_index");

-- AddForeignKey
ALTER TABLE "x12_group_ack" ADD CONSTRAINT "x12_group_ack_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "dropship_vendor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "x12_group_ack" ADD CONSTRAINT "x12_group_ack_received_id_fkey" FOREIGN KEY ("received_id") REFERENCES "transmission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "x12_group_ack" ADD CONSTRAINT "x12_group_ack_ack_transmission_id_fkey" FOREIGN KEY ("ack_transmission_id") REFERENCES "transmission"("id") ON DELETE SET NULL ON UPDATE CASCADE;

