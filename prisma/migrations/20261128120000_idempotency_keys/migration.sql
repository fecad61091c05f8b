-- Idempotency-Key of creating POSTs (issue 15), per organization: a claim taken with
-- INSERT ... ON CONFLICT before the work, the response recorded after it and replayed for 24 h.
-- No foreign key to Tenant: rows lapse within a day and are purged by expiresAt.

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "tenantId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "claimToken" TEXT NOT NULL,
    "lockedUntil" TIMESTAMP(3) NOT NULL,
    "responseStatus" INTEGER,
    "responseHeaders" JSONB,
    "responseBody" BYTEA,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("tenantId","key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
