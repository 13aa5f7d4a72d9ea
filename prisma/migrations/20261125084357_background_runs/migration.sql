-- CreateTable
CREATE TABLE "background_run" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "lock_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "params" JSONB NOT NULL DEFAULT '{}',
    "progress" JSONB NOT NULL DEFAULT '{}',
    "result" JSONB,
    "instance" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "background_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "background_run_kind_id_idx" ON "background_run"("kind", "id");

-- CreateIndex
CREATE INDEX "background_run_lock_key_id_idx" ON "background_run"("lock_key", "id");


-- Written by hand: Prisma cannot express a partial unique index. At most one
-- running row per lock key, whatever the advisory lock says (D94).
CREATE UNIQUE INDEX "background_run_running_key" ON "background_run"("lock_key") WHERE "status" = 'running';
