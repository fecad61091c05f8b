-- A workspace invitation grants that workspace only: a user it creates has no tenant role
-- (roleName null) and reviews only where a membership gives them a review role.

-- AlterTable
ALTER TABLE "User" ALTER COLUMN "roleName" DROP NOT NULL;

-- Users created by a workspace invitation were given its role as their tenant role, and so
-- could review in every workspace. Those never invited to the organization itself lose it.
UPDATE "User" u SET "roleName" = NULL
WHERE EXISTS (SELECT 1 FROM "Invitation" i WHERE i."userId" = u.id AND i."workspaceId" IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM "Invitation" i WHERE i."userId" = u.id AND i."workspaceId" IS NULL);
