import { inTransaction, type PrismaClient } from '../../db/prisma.js';
import { TemplateType, workspaceKindOf, nameOf } from '../../domain/enums.js';
import { NotFoundError } from '../../http/problem.js';
import { hashSecret, randomToken, verifySecret } from '../auth/secret-hash.js';
import { findClientByClientId, insertClient, replaceClientSecret } from '../auth/clients.repository.js';
import { insertWorkspace } from '../workspaces/workspaces.repository.js';
import { toWorkspaceResponse } from '../workspaces/workspaces.service.js';
import { findTenant, insertTenant } from './tenants.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface NewTenant {
  name: string;
  /** Fixed credentials (demo seed); generated when absent. */
  clientId?: string;
  clientSecret?: string;
  secretTtlDays: number;
  /** Template of the default workspace. */
  defaultTemplate?: TemplateType;
  /** Name of the default workspace; "Default workspace" when absent. */
  defaultWorkspaceName?: string;
  licenceExpiresOn?: Date | null;
  freeVolume?: number | null;
  featureHighPriority?: boolean;
  featureCustomFormValues?: boolean;
}

export interface CreatedTenant {
  tenantId: number;
  clientId: string;
  /** Shown once: only its hash is stored. */
  clientSecret: string;
  defaultWorkspaceId: number;
}

export function newClientId(): string {
  return `client-${randomToken(12)}`;
}

function workspaceData(tenantId: number, name: string, templateType: TemplateType, isDefault: boolean) {
  return {
    tenantId,
    name,
    isDefault,
    templateType,
    templateName: nameOf(TemplateType, templateType) ?? null,
    ...workspaceKindOf(templateType),
  };
}

/** A tenant with its default workspace (which has a processing pipeline) and its API client. */
export async function createTenant(prisma: PrismaClient, input: NewTenant): Promise<CreatedTenant> {
  const clientId = input.clientId ?? newClientId();
  const clientSecret = input.clientSecret ?? randomToken(32);
  const secretHash = await hashSecret(clientSecret);
  return inTransaction(prisma, async (tx) => {
    const tenant = await insertTenant(tx, {
      name: input.name,
      licenceExpiresOn: input.licenceExpiresOn ?? null,
      freeVolume: input.freeVolume ?? null,
      featureHighPriority: input.featureHighPriority ?? false,
      featureCustomFormValues: input.featureCustomFormValues ?? false,
    });
    const workspace = await insertWorkspace(tx, workspaceData(tenant.id, input.defaultWorkspaceName ?? 'Default workspace', input.defaultTemplate ?? TemplateType.Layout, true));
    await insertClient(tx, { tenantId: tenant.id, clientId, secretHash, secretExpiresAt: new Date(Date.now() + input.secretTtlDays * DAY_MS) });
    return { tenantId: tenant.id, clientId, clientSecret, defaultWorkspaceId: workspace.id };
  });
}

export async function createWorkspace(
  prisma: PrismaClient,
  input: { tenantId: number; name: string; templateType: TemplateType; description?: string },
) {
  const tenant = await findTenant(prisma, input.tenantId);
  if (!tenant) throw new NotFoundError(`Tenant ${input.tenantId} was not found`);
  const workspace = await insertWorkspace(prisma, {
    ...workspaceData(input.tenantId, input.name, input.templateType, false),
    description: input.description ?? null,
  });
  return toWorkspaceResponse(workspace);
}

/**
 * Replaces the tenant's client secret. The old secret stops at once, and so does every token
 * issued with it: tokens carry the secret version, checked on each request against the version
 * every api instance hears of when this commits (ClientSecretCache).
 */
export async function rotateClientSecret(prisma: PrismaClient, tenantId: number, secretTtlDays: number, secret?: string) {
  const clientSecret = secret ?? randomToken(32);
  const secretHash = await hashSecret(clientSecret);
  const secretExpiresAt = new Date(Date.now() + secretTtlDays * DAY_MS);
  const client = await replaceClientSecret(prisma, tenantId, { secretHash, secretExpiresAt }, new Date()).catch((err: { code?: string }) => {
    if (err.code === 'P2025') throw new NotFoundError(`Tenant ${tenantId} has no API client`);
    throw err;
  });
  return { tenantId, clientId: client.clientId, clientSecret, secretExpiresAt: secretExpiresAt.toISOString() };
}

/** True when the stored secret of this client is `secret` (used by the demo seed to stay idempotent). */
export async function clientHasSecret(prisma: PrismaClient, clientId: string, secret: string): Promise<boolean> {
  const client = await findClientByClientId(prisma, clientId);
  return client ? verifySecret(secret, client.secretHash) : false;
}

export const allTemplateTypes = Object.values(TemplateType) as TemplateType[];
