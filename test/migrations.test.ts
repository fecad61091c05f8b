import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate, migrationsDir } from '../src/db/migrate.js';
import { createPrisma, type PrismaClient } from '../src/db/prisma.js';
import { TaskStatus, IntegrationStatus, TemplateType, SpeakerSource } from '../src/domain/enums.js';

const databaseUrl = inject('databaseUrl');
let prisma: PrismaClient;
let db: pg.Client;

beforeAll(async () => {
  prisma = createPrisma(databaseUrl, 2);
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await prisma.$disconnect();
  await db.end();
});

describe('migration runner', () => {
  it('records every migration in _prisma_migrations with its sha256 checksum, and a re-run applies nothing', async () => {
    const again = await migrate(databaseUrl);
    expect(again.applied).toEqual([]);
    const names = (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(again.alreadyApplied).toBe(names.length);
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.rows.map((r) => r.migration_name)).toEqual(names.sort());
    for (const row of rows.rows) {
      const sql = await readFile(path.join(migrationsDir, row.migration_name, 'migration.sql'), 'utf8');
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const tmp = await import('node:fs/promises').then((fs) => fs.mkdtemp(path.join(process.cwd(), '.data', 'mig-')));
    const fs = await import('node:fs/promises');
    const first = (await readdir(migrationsDir)).filter((n) => !n.endsWith('.toml')).sort()[0]!;
    await fs.mkdir(path.join(tmp, first), { recursive: true });
    await fs.writeFile(path.join(tmp, first, 'migration.sql'), '-- edited\nSELECT 1;');
    await expect(migrate(databaseUrl, tmp)).rejects.toThrow(/modified after it was applied/);
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('creates a column of the matching type for every scalar field of every model in schema.prisma', async () => {
    const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const byTable = new Map<string, Map<string, string>>();
    for (const c of columns.rows) {
      if (!byTable.has(c.table_name)) byTable.set(c.table_name, new Map());
      byTable.get(c.table_name)!.set(c.column_name, c.data_type);
    }
    const expectedType: Record<string, string> = {
      Int: 'integer',
      String: 'text',
      Boolean: 'boolean',
      DateTime: 'timestamp without time zone',
      Json: 'jsonb',
      Float: 'double precision',
      BigInt: 'bigint',
    };
    const schema = await readFile(path.join(migrationsDir, '..', 'schema.prisma'), 'utf8');
    const models = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
    expect(models.length).toBeGreaterThanOrEqual(13);
    for (const [, name, body] of models) {
      const table = byTable.get(name!);
      expect(table, `table ${name}`).toBeDefined();
      for (const line of body!.split('\n')) {
        const field = line.trim().match(/^(\w+)\s+(Int|String|Boolean|DateTime|Json|Float|BigInt)(\?)?(\s|$)/);
        if (!field) continue;
        const type = line.includes('@db.Date') ? 'date' : expectedType[field[2]!];
        expect(table!.get(field[1]!), `${name}.${field[1]}`).toBe(type);
      }
    }
  });
});

describe('the migrated database serves every model', () => {
  it('writes and reads a row of each model through Prisma', async () => {
    const tenant = await prisma.tenant.create({
      data: { name: 'models', licenceExpiresOn: new Date('2030-01-01'), freeVolume: 100, featureHighPriority: true },
    });
    const client = await prisma.apiClient.create({
      data: { tenantId: tenant.id, clientId: `models-${tenant.id}`, secretHash: 'x', secretExpiresAt: new Date('2030-01-01') },
    });
    const workspace = await prisma.workspace.create({
      data: {
        tenantId: tenant.id,
        name: 'w',
        isDefault: true,
        taskType: 1,
        workspaceType: 2,
        templateType: TemplateType.Template,
        templateFields: [{ fieldUniqueId: 'f1' }],
      },
    });
    const batch = await prisma.batch.create({ data: { tenantId: tenant.id, workspaceId: workspace.id, displayName: 'b' } });
    const user = await prisma.user.create({ data: { tenantId: tenant.id, email: 'u@example.com', roleName: 'Reviewer' } });
    const parent = await prisma.task.create({
      data: {
        tenantId: tenant.id,
        workspaceId: workspace.id,
        batchId: batch.id,
        taskNumber: 1,
        externalId: `ext-${tenant.id}`,
        displayName: 'parent',
        taskStatus: TaskStatus.Split,
        integrationStatus: IntegrationStatus.Never,
        request: { context: { url: 'https://example.com/a.pdf' } },
        metadata: { k: 'v' },
        lastCheckedOutById: user.id,
        durationSeconds: 12.5,
      },
    });
    const part = await prisma.task.create({
      data: {
        tenantId: tenant.id,
        workspaceId: workspace.id,
        taskNumber: 2,
        displayName: 'part',
        taskStatus: TaskStatus.ToReview,
        integrationStatus: IntegrationStatus.Never,
        request: {},
        parentTaskId: parent.id,
        partNumber: 1,
      },
    });
    await prisma.taskAssignment.create({ data: { taskId: part.id, position: 0, email: 'u@example.com' } });
    await prisma.documentChunk.create({ data: { taskId: part.id, chunkNumber: 1, pageNumber: 1, entities: [{ type: 'word' }] } });
    await prisma.transcript.create({ data: { taskId: part.id, totalTimeInSeconds: 3.5, items: [], annotations: [] } });
    await prisma.taskSpeaker.create({ data: { taskId: part.id, speakerId: 's1', speakerName: 'A', isDefault: true, source: SpeakerSource.Task } });
    await prisma.workspaceSpeaker.create({ data: { workspaceId: workspace.id, speakerId: 's1', speakerName: 'A' } });
    await prisma.workspaceMember.create({ data: { workspaceId: workspace.id, userId: user.id, roleName: 'Reviewer' } });
    await prisma.invitation.create({
      data: { tenantId: tenant.id, userId: user.id, roleName: 'Reviewer', tokenHash: `h-${tenant.id}`, expiresAt: new Date('2030-01-01') },
    });
    await prisma.upload.create({
      data: { id: `up-${tenant.id}`, tenantId: tenant.id, workspaceId: workspace.id, fileType: 'application/pdf', size: 5n * 1024n ** 3n, expiresAt: new Date('2030-01-01') },
    });

    const loaded = await prisma.task.findUniqueOrThrow({
      where: { id: parent.id },
      include: {
        parts: { include: { assignments: true, chunks: true, transcript: true, speakers: true } },
        batch: true,
        lastCheckedOutBy: true,
        workspace: { include: { members: true, workspaceSpeakers: true } },
        tenant: { include: { client: true, uploads: true, users: { include: { invitations: true } } } },
      },
    });
    expect(loaded.parts[0]!.assignments[0]!.email).toBe('u@example.com');
    expect(loaded.parts[0]!.chunks[0]!.entities).toEqual([{ type: 'word' }]);
    expect(loaded.parts[0]!.transcript!.totalTimeInSeconds).toBe(3.5);
    expect(loaded.parts[0]!.speakers[0]!.isDefault).toBe(true);
    expect(loaded.workspace.members[0]!.roleName).toBe('Reviewer');
    expect(loaded.workspace.workspaceSpeakers).toHaveLength(1);
    expect(loaded.tenant.client!.id).toBe(client.id);
    expect(loaded.tenant.uploads[0]!.size).toBe(5n * 1024n ** 3n);
    expect(loaded.tenant.users[0]!.invitations).toHaveLength(1);
    expect(loaded.lastCheckedOutBy!.email).toBe('u@example.com');
    expect(loaded.externalIntegrationStatus).toBe('never');
    expect(loaded.metadata).toEqual({ k: 'v' });

    // Uniqueness the API relies on: externalId per organization, taskNumber per workspace.
    await expect(
      prisma.task.create({
        data: {
          tenantId: tenant.id,
          workspaceId: workspace.id,
          taskNumber: 3,
          externalId: `ext-${tenant.id}`,
          displayName: 'dup',
          taskStatus: 30,
          integrationStatus: 1,
          request: {},
        },
      }),
    ).rejects.toMatchObject({ code: 'P2002' });
    await expect(
      prisma.task.create({
        data: { tenantId: tenant.id, workspaceId: workspace.id, taskNumber: 1, displayName: 'dup', taskStatus: 30, integrationStatus: 1, request: {} },
      }),
    ).rejects.toMatchObject({ code: 'P2002' });

    await prisma.tenant.delete({ where: { id: tenant.id } });
    expect(await prisma.task.count({ where: { tenantId: tenant.id } })).toBe(0);
  });
});

describe('chunk storage', () => {
  it('compresses the chunks entities with lz4 on a server that has it, and keeps the default where it has not', async () => {
    const lz4 = await db
      .query('CREATE TEMP TABLE lz4_probe (x text COMPRESSION lz4)')
      .then(() => db.query('DROP TABLE lz4_probe').then(() => true))
      .catch(() => false);
    const { rows } = await db.query<{ attcompression: string }>(
      `SELECT attcompression FROM pg_attribute WHERE attrelid = '"DocumentChunk"'::regclass AND attname = 'entities'`,
    );
    // 'l': lz4; '' : the server's default_toast_compression (pglz as shipped).
    expect(rows[0]!.attcompression).toBe(lz4 ? 'l' : '');
  });
});
