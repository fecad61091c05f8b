import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { PrismaClient } from '../db/prisma.js';
import { nameOf, TemplateType } from '../domain/enums.js';
import {
  allTemplateTypes,
  clientHasSecret,
  createTenant,
  createWorkspace,
  rotateClientSecret,
} from '../modules/tenants/tenants.service.js';
import { randomToken } from '../modules/auth/secret-hash.js';

export interface DemoCredentials {
  tenantId: number;
  clientId: string;
  clientSecret: string;
  defaultWorkspaceId: number;
}

const DEMO_TENANT = 'Demo organization';

/**
 * The demo tenant of `npm start`: every feature enabled, no licence limits, one workspace per
 * TemplateType. Idempotent: restarts reuse it and its credentials (SEED_CLIENT_ID/SECRET, or the
 * ones generated the first time and kept in DATA_DIR/demo-credentials.json).
 */
export async function seedDemoTenant(prisma: PrismaClient, config: Config): Promise<DemoCredentials & { created: boolean }> {
  const file = path.join(config.DATA_DIR, 'demo-credentials.json');
  const saved = await readFile(file, 'utf8')
    .then((t) => JSON.parse(t) as DemoCredentials)
    .catch(() => undefined);
  const wanted = {
    clientId: config.SEED_CLIENT_ID ?? saved?.clientId ?? `demo-${randomToken(9)}`,
    clientSecret: config.SEED_CLIENT_SECRET ?? saved?.clientSecret ?? randomToken(32),
  };

  // The demo tenant is the one holding the wanted client id, or the one seeded before.
  const existing =
    (await prisma.apiClient.findUnique({ where: { clientId: wanted.clientId } })) ??
    (saved ? await prisma.apiClient.findUnique({ where: { tenantId: saved.tenantId } }) : null);
  let credentials: DemoCredentials;
  let created = false;
  if (existing) {
    if (existing.clientId !== wanted.clientId) {
      await prisma.apiClient.update({ where: { id: existing.id }, data: { clientId: wanted.clientId } });
    }
    if (!(await clientHasSecret(prisma, wanted.clientId, wanted.clientSecret))) {
      await rotateClientSecret(prisma, existing.tenantId, config.CLIENT_SECRET_TTL_DAYS, wanted.clientSecret);
    }
    const defaultWorkspace = await prisma.workspace.findFirstOrThrow({ where: { tenantId: existing.tenantId, isDefault: true } });
    credentials = { tenantId: existing.tenantId, ...wanted, defaultWorkspaceId: defaultWorkspace.id };
  } else {
    const tenant = await createTenant(prisma, {
      name: DEMO_TENANT,
      ...wanted,
      secretTtlDays: config.CLIENT_SECRET_TTL_DAYS,
      defaultTemplate: TemplateType.Layout,
      featureHighPriority: true,
      featureCustomFormValues: true,
    });
    for (const templateType of allTemplateTypes.filter((t) => t !== TemplateType.Layout)) {
      await createWorkspace(prisma, { tenantId: tenant.tenantId, name: `${nameOf(TemplateType, templateType)} workspace`, templateType });
    }
    credentials = tenant;
    created = true;
  }
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { ...credentials, created };
}
