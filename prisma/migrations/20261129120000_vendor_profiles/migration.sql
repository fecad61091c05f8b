-- Vendor profiles (issue 16): what reviewers confirmed or corrected on a vendor's documents, per
-- organization and workspace, read by the invoice and receipt models of later documents. Deleting
-- the organization or the workspace deletes its profiles.

-- CreateTable
CREATE TABLE "VendorProfile" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "vendorName" TEXT,
    "nameKey" TEXT,
    "taxIds" TEXT[],
    "ibans" TEXT[],
    "fingerprint" TEXT[],
    "fields" JSONB NOT NULL,
    "reviewCount" INTEGER NOT NULL DEFAULT 0,
    "correctedReviewCount" INTEGER NOT NULL DEFAULT 0,
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "lastTaskId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VendorProfile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VendorProfile_tenantId_workspaceId_updatedAt_idx" ON "VendorProfile"("tenantId", "workspaceId", "updatedAt");

-- CreateIndex
CREATE INDEX "VendorProfile_workspaceId_nameKey_idx" ON "VendorProfile"("workspaceId", "nameKey");

-- CreateIndex
CREATE INDEX "VendorProfile_taxIds_idx" ON "VendorProfile" USING GIN ("taxIds");

-- CreateIndex
CREATE INDEX "VendorProfile_ibans_idx" ON "VendorProfile" USING GIN ("ibans");

-- AddForeignKey
ALTER TABLE "VendorProfile" ADD CONSTRAINT "VendorProfile_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VendorProfile" ADD CONSTRAINT "VendorProfile_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
