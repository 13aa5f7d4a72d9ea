-- CreateIndex
CREATE INDEX "feed_log_feed_name_type_created_at_idx" ON "feed_log"("feed_name", "type", "created_at");

-- CreateIndex
CREATE INDEX "feed_log_feed_name_id_idx" ON "feed_log"("feed_name", "id");

-- CreateIndex
CREATE INDEX "feed_log_type_id_idx" ON "feed_log"("type", "id");

-- CreateIndex
CREATE INDEX "feed_log_updated_at_idx" ON "feed_log"("updated_at");

