import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { PrismaClient } from '../db/prisma.js';
import { nameOf, TemplateType, UserStatus } from '../domain/enums.js';
import {
  allTemplateTypes,
  clientHasSecret,
  createTenant,
  createWorkspace,
  rotateClientSecret,
} from '../modules/tenants/tenants.service.js';
import { findClientByClientId, findClientRowOfTenant, setClientId } from '../modules/auth/clients.repository.js';
import { hashSecret, randomToken, verifySecretIfAny } from '../modules/auth/secret-hash.js';
import { findUserByEmail, upsertActiveUser } from '../modules/users/users.repository.js';
import { findDefaultWorkspace, listWorkspaces, setWorkspaceName } from '../modules/workspaces/workspaces.repository.js';

export interface DemoCredentials {
  tenantId: number;
  clientId: string;
  clientSecret: string;
  defaultWorkspaceId: number;
  /** A reviewer of every workspace of the demo organization, to try /review at once. */
  reviewer: { email: string; password: string };
}

const DEMO_TENANT = 'Demo organization';

/** The demo workspaces' names: what each one reads, in the words of someone trying the service. */
export const DEMO_WORKSPACE_NAMES: Readonly<Record<TemplateType, string>> = {
  [TemplateType.InvoicesUniversal]: 'Invoices',
  [TemplateType.InvoicesPortugal]: 'Invoices (Portugal)',
  [TemplateType.Receipts]: 'Receipts',
  [TemplateType.Transcripts]: 'Transcripts',
  [TemplateType.DocumentAnonymization]: 'Document anonymization',
  [TemplateType.ImageAnonymization]: 'Image anonymization',
  [TemplateType.IdentificationDocument]: 'ID documents',
  [TemplateType.Layout]: 'Layout',
  [TemplateType.Custom]: 'Custom fields',
  [TemplateType.Template]: 'Templates',
  [TemplateType.Labelling]: 'Labelling',
};

/** The names demo workspaces were given before they had their own: such a workspace is renamed. */
function isGeneratedName(workspace: { name: string; templateType: number; isDefault: boolean }): boolean {
  return workspace.name === (workspace.isDefault ? 'Default workspace' : `${nameOf(TemplateType, workspace.templateType)} workspace`);
}

/** Names the demo workspaces still called by their generated names (a demo organization seeded before they had names). */
async function nameDemoWorkspaces(prisma: PrismaClient, tenantId: number): Promise<void> {
  for (const workspace of await listWorkspaces(prisma, tenantId)) {
    const name = DEMO_WORKSPACE_NAMES[workspace.templateType as TemplateType];
    if (name && isGeneratedName(workspace)) await setWorkspaceName(prisma, tenantId, workspace.id, name);
  }
}
export const DEMO_REVIEWER_EMAIL = 'reviewer@demo.example.com';

/**
 * The demo reviewer: an Active user with the organization role Reviewer (every workspace), as
 * accepting an invitation leaves one. Its password is the saved one, or a new one; a user whose
 * password or status differs is brought in line. Returns whether it was created or changed.
 */
async function seedDemoReviewer(prisma: PrismaClient, tenantId: number, password: string): Promise<boolean> {
  const email = DEMO_REVIEWER_EMAIL;
  const existing = await findUserByEmail(prisma, tenantId, email);
  if (existing?.status === UserStatus.Active && (await verifySecretIfAny(password, existing.passwordHash))) return false;
  const account = { name: 'Demo Reviewer', userName: email, status: UserStatus.Active, emailConfirmed: true, passwordHash: await hashSecret(password) };
  await upsertActiveUser(prisma, tenantId, email, 'Reviewer', account);
  return true;
}

/**
 * The demo tenant of `npm start`: every feature enabled, no licence limits, one workspace per
 * TemplateType, each named for what it reads (DEMO_WORKSPACE_NAMES). Idempotent: restarts reuse it and its credentials (SEED_CLIENT_ID/SECRET, or the
 * ones generated the first time and kept in DATA_DIR/demo-credentials.json).
 */
export async function seedDemoTenant(
  prisma: PrismaClient,
  config: Config,
): Promise<DemoCredentials & { created: boolean; reviewerSeeded: boolean }> {
  const file = path.join(config.DATA_DIR, 'demo-credentials.json');
  const saved = await readFile(file, 'utf8')
    .then((t) => JSON.parse(t) as DemoCredentials)
    .catch(() => undefined);
  const wanted = {
    clientId: config.SEED_CLIENT_ID ?? saved?.clientId ?? `demo-${randomToken(9)}`,
    clientSecret: config.SEED_CLIENT_SECRET ?? saved?.clientSecret ?? randomToken(32),
  };
  const reviewer = { email: DEMO_REVIEWER_EMAIL, password: saved?.reviewer?.password ?? randomToken(12) };

  // The demo tenant is the one holding the wanted client id, or the one seeded before.
  const existing =
    (await findClientByClientId(prisma, wanted.clientId)) ?? (saved ? await findClientRowOfTenant(prisma, saved.tenantId) : null);
  let credentials: Omit<DemoCredentials, 'reviewer'>;
  let created = false;
  if (existing) {
    if (existing.clientId !== wanted.clientId) {
      await setClientId(prisma, existing.tenantId, wanted.clientId);
    }
    if (!(await clientHasSecret(prisma, wanted.clientId, wanted.clientSecret))) {
      await rotateClientSecret(prisma, existing.tenantId, config.CLIENT_SECRET_TTL_DAYS, wanted.clientSecret);
    }
    const defaultWorkspace = await findDefaultWorkspace(prisma, existing.tenantId);
    if (!defaultWorkspace) throw new Error(`the demo organization ${existing.tenantId} has no default workspace`);
    credentials = { tenantId: existing.tenantId, ...wanted, defaultWorkspaceId: defaultWorkspace.id };
    await nameDemoWorkspaces(prisma, existing.tenantId);
  } else {
    const tenant = await createTenant(prisma, {
      name: DEMO_TENANT,
      ...wanted,
      secretTtlDays: config.CLIENT_SECRET_TTL_DAYS,
      defaultTemplate: TemplateType.Layout,
      defaultWorkspaceName: DEMO_WORKSPACE_NAMES[TemplateType.Layout],
      featureHighPriority: true,
      featureCustomFormValues: true,
    });
    for (const templateType of allTemplateTypes.filter((t) => t !== TemplateType.Layout)) {
      await createWorkspace(prisma, { tenantId: tenant.tenantId, name: DEMO_WORKSPACE_NAMES[templateType], templateType });
    }
    credentials = tenant;
    created = true;
  }
  const reviewerSeeded = await seedDemoReviewer(prisma, credentials.tenantId, reviewer.password);
  const all: DemoCredentials = { ...credentials, reviewer };
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  return { ...all, created, reviewerSeeded };
}
