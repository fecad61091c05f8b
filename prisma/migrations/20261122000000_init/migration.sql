-- CreateTable
CREATE TABLE "Tenant" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "licenceExpiresOn" TIMESTAMP(3),
    "freeVolume" INTEGER,
    "featureHighPriority" BOOLEAN NOT NULL DEFAULT false,
    "featureCustomFormValues" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tenant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiClient" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "clientId" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "secretVersion" INTEGER NOT NULL DEFAULT 1,
    "secretExpiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rotatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Workspace" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "taskType" INTEGER NOT NULL,
    "workspaceType" INTEGER NOT NULL,
    "templateType" INTEGER NOT NULL,
    "templateName" TEXT,
    "hasPipeline" BOOLEAN NOT NULL DEFAULT true,
    "transcriptLanguage" TEXT NOT NULL DEFAULT 'en-US',
    "templateFields" JSONB,
    "nextTaskNumber" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Workspace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Batch" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "displayName" TEXT NOT NULL,
    "description" TEXT,
    "totalTasks" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Task" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "batchId" INTEGER,
    "taskNumber" INTEGER NOT NULL,
    "externalId" TEXT,
    "displayName" TEXT NOT NULL,
    "description" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "taskStatus" INTEGER NOT NULL,
    "statusChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "integrationStatus" INTEGER NOT NULL,
    "externalIntegrationStatus" TEXT NOT NULL DEFAULT 'never',
    "totalPages" INTEGER NOT NULL DEFAULT 0,
    "restartCount" INTEGER NOT NULL DEFAULT 0,
    "preProcessingStartedOn" TIMESTAMP(3),
    "priority" INTEGER NOT NULL DEFAULT 1,
    "request" JSONB NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "assignmentOrder" INTEGER,
    "warning" BOOLEAN NOT NULL DEFAULT false,
    "failureReason" TEXT,
    "sourceBlobKey" TEXT,
    "sourceMimeType" TEXT,
    "redactedBlobKey" TEXT,
    "durationSeconds" DOUBLE PRECISION,
    "averageConfidence" DOUBLE PRECISION,
    "parentTaskId" INTEGER,
    "partNumber" INTEGER,
    "lastCheckedOutById" INTEGER,
    "lastCheckedOutUntil" TIMESTAMP(3),
    "lastIntegratedOn" TIMESTAMP(3),
    "lastIntegratedById" INTEGER,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskAssignment" (
    "taskId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "reviewState" INTEGER NOT NULL DEFAULT 0,
    "reviewedAt" TIMESTAMP(3),

    CONSTRAINT "TaskAssignment_pkey" PRIMARY KEY ("taskId","position")
);

-- CreateTable
CREATE TABLE "DocumentChunk" (
    "id" SERIAL NOT NULL,
    "taskId" INTEGER NOT NULL,
    "chunkNumber" INTEGER NOT NULL,
    "pageNumber" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "retrievedOn" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastModifiedById" INTEGER,
    "lastModifiedByExternal" TEXT,
    "lastModifiedOn" TIMESTAMP(3),
    "averageConfidence" DOUBLE PRECISION,
    "entities" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "DocumentChunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Transcript" (
    "taskId" INTEGER NOT NULL,
    "totalTimeInSeconds" DOUBLE PRECISION NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "annotations" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Transcript_pkey" PRIMARY KEY ("taskId")
);

-- CreateTable
CREATE TABLE "TaskSpeaker" (
    "id" SERIAL NOT NULL,
    "taskId" INTEGER NOT NULL,
    "speakerId" TEXT NOT NULL,
    "speakerName" TEXT NOT NULL,
    "speakerPrefix" TEXT,
    "speakerSuffix" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "source" INTEGER NOT NULL,

    CONSTRAINT "TaskSpeaker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkspaceSpeaker" (
    "id" SERIAL NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "speakerId" TEXT NOT NULL,
    "speakerName" TEXT NOT NULL,
    "speakerPrefix" TEXT,
    "speakerSuffix" TEXT,

    CONSTRAINT "WorkspaceSpeaker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "userName" TEXT,
    "passwordHash" TEXT,
    "roleName" TEXT NOT NULL,
    "emailConfirmed" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'Invited',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkspaceMember" (
    "workspaceId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "roleName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceMember_pkey" PRIMARY KEY ("workspaceId","userId")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "workspaceId" INTEGER,
    "roleName" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "mailSentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Upload" (
    "id" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "workspaceId" INTEGER NOT NULL,
    "fileType" TEXT NOT NULL,
    "size" BIGINT,
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Upload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiClient_tenantId_key" ON "ApiClient"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiClient_clientId_key" ON "ApiClient"("clientId");

-- CreateIndex
CREATE INDEX "Workspace_tenantId_idx" ON "Workspace"("tenantId");

-- CreateIndex
CREATE INDEX "Batch_tenantId_createdAt_id_idx" ON "Batch"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Batch_tenantId_workspaceId_createdAt_id_idx" ON "Batch"("tenantId", "workspaceId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_tenantId_createdAt_id_idx" ON "Task"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_tenantId_taskStatus_createdAt_id_idx" ON "Task"("tenantId", "taskStatus", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_tenantId_workspaceId_createdAt_id_idx" ON "Task"("tenantId", "workspaceId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_tenantId_integrationStatus_createdAt_id_idx" ON "Task"("tenantId", "integrationStatus", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Task_batchId_taskStatus_idx" ON "Task"("batchId", "taskStatus");

-- CreateIndex
CREATE INDEX "Task_taskStatus_statusChangedAt_idx" ON "Task"("taskStatus", "statusChangedAt");

-- CreateIndex
CREATE INDEX "Task_parentTaskId_idx" ON "Task"("parentTaskId");

-- CreateIndex
CREATE UNIQUE INDEX "Task_tenantId_externalId_key" ON "Task"("tenantId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Task_workspaceId_taskNumber_key" ON "Task"("workspaceId", "taskNumber");

-- CreateIndex
CREATE UNIQUE INDEX "DocumentChunk_taskId_chunkNumber_key" ON "DocumentChunk"("taskId", "chunkNumber");

-- CreateIndex
CREATE UNIQUE INDEX "TaskSpeaker_taskId_speakerId_key" ON "TaskSpeaker"("taskId", "speakerId");

-- CreateIndex
CREATE UNIQUE INDEX "WorkspaceSpeaker_workspaceId_speakerId_key" ON "WorkspaceSpeaker"("workspaceId", "speakerId");

-- CreateIndex
CREATE UNIQUE INDEX "User_tenantId_email_key" ON "User"("tenantId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_mailSentAt_idx" ON "Invitation"("mailSentAt");

-- CreateIndex
CREATE INDEX "Upload_expiresAt_idx" ON "Upload"("expiresAt");

-- AddForeignKey
ALTER TABLE "ApiClient" ADD CONSTRAINT "ApiClient_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Workspace" ADD CONSTRAINT "Workspace_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Batch" ADD CONSTRAINT "Batch_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Batch" ADD CONSTRAINT "Batch_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_parentTaskId_fkey" FOREIGN KEY ("parentTaskId") REFERENCES "Task"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_lastCheckedOutById_fkey" FOREIGN KEY ("lastCheckedOutById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_lastIntegratedById_fkey" FOREIGN KEY ("lastIntegratedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskAssignment" ADD CONSTRAINT "TaskAssignment_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DocumentChunk" ADD CONSTRAINT "DocumentChunk_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Transcript" ADD CONSTRAINT "Transcript_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaskSpeaker" ADD CONSTRAINT "TaskSpeaker_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceSpeaker" ADD CONSTRAINT "WorkspaceSpeaker_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceMember" ADD CONSTRAINT "WorkspaceMember_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceMember" ADD CONSTRAINT "WorkspaceMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
