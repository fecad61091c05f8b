#!/usr/bin/env node
/**
 * One binary, roles by command:
 *   serve | worker | dev | migrate
 *   tenant create --name N
 *   workspace create --tenant ID --name N --template <TemplateType name>
 *   client rotate-secret --tenant ID
 */
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrate } from './db/migrate.js';
import { LOCAL_SERVERS } from './dev/local-servers.js';
import { seedDemoTenant } from './dev/seed.js';
import { TemplateType } from './domain/enums.js';
import { unavailableWork } from './engines/inventory.js';
import { createTenant, createWorkspace, rotateClientSecret } from './modules/tenants/tenants.service.js';
import { resolveInfrastructure } from './runtime/infrastructure.js';
import { createServices } from './runtime/services.js';
import { startWorkers, type WorkerPool } from './pipeline/worker.js';
import { createLogger } from './observability/logger.js';
import { startMetricsServer, type MetricsServer } from './observability/metrics-endpoint.js';

const USAGE = `usage: main <command>
  serve                                   run the HTTP api (DATABASE_URL, REDIS_URL required)
  worker                                  run the queue workers (DATABASE_URL, REDIS_URL required)
  dev                                     api + worker on embedded defaults, demo tenant seeded
  migrate                                 apply database migrations
  tenant create --name N                  create an organization with its default workspace and client
  workspace create --tenant ID --name N --template T
                                          create a workspace (T: a TemplateType name, e.g. Layout)
  client rotate-secret --tenant ID        replace an organization's client secret`;

class UsageError extends Error {}

function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function requireInt(values: Record<string, unknown>, name: string): number {
  const n = Number(requireOption(values, name));
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

async function withDatabase<T>(config: Config, fn: (services: Awaited<ReturnType<typeof createServices>>) => Promise<T>) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const infra = await resolveInfrastructure(config, { local: LOCAL_SERVERS, log });
  try {
    await migrate(infra.databaseUrl);
    const services = await createServices(config, infra);
    try {
      return await fn(services);
    } finally {
      await services.close();
    }
  } finally {
    await infra.stop();
  }
}

/** serve: the api; worker: the queue workers; dev: both, on embedded defaults with the demo tenant. */
async function runRole(config: Config, role: 'serve' | 'worker' | 'dev'): Promise<void> {
  const logger = createLogger(config);
  const infra = await resolveInfrastructure(config, { local: role === 'dev' ? LOCAL_SERVERS : undefined, log: (l) => logger.info(l) });
  let services: Awaited<ReturnType<typeof createServices>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let workers: WorkerPool | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    const migrated = await migrate(infra.databaseUrl);
    if (migrated.applied.length) logger.info({ applied: migrated.applied }, 'database migrated');
    services = await createServices(config, infra);
    logger.info({ engines: services.engines }, 'engines found');
    for (const { workspaceTypes, reason } of unavailableWork(services.engines)) {
      logger.warn({ workspaceTypes }, `${workspaceTypes.join(', ')} tasks cannot run here: ${reason}`);
    }
    if (role === 'dev') {
      const demo = await seedDemoTenant(services.prisma, config);
      logger.info(
        { tenantId: demo.tenantId, clientId: demo.clientId, defaultWorkspaceId: demo.defaultWorkspaceId },
        `demo tenant ${demo.created ? 'created' : 'ready'}; credentials in ${config.DATA_DIR}/demo-credentials.json`,
      );
      if (demo.created) process.stdout.write(`Demo credentials: client_id=${demo.clientId} client_secret=${demo.clientSecret}\n`);
      if (demo.reviewerSeeded) process.stdout.write(`Demo reviewer (/review): email=${demo.reviewer.email} password=${demo.reviewer.password}\n`);
    }
    if (role !== 'serve') {
      workers = await startWorkers(
        { ...services, log: logger },
        { redisUrl: infra.redisUrl, sweep: { everyMs: config.SWEEP_INTERVAL_SECONDS * 1000, databaseUrl: infra.databaseUrl } },
      );
      logger.info('workers started');
    }
    if (role !== 'worker') {
      app = await buildApp(services, { logger });
      await app.listen({ host: config.HOST, port: config.PORT });
    }
    if (config.METRICS_PORT !== undefined) {
      metricsServer = await startMetricsServer({ ...config, METRICS_PORT: config.METRICS_PORT }, { queues: services.queues });
      logger.info({ port: metricsServer.port }, 'metrics served');
    }
  } catch (err) {
    // Leave nothing behind (embedded Postgres, local Redis) when start-up fails.
    await app?.close().catch(() => undefined);
    await metricsServer?.close().catch(() => undefined);
    await workers?.close().catch(() => undefined);
    await services?.close().catch(() => undefined);
    await infra.stop();
    throw err;
  }
  const running = { app, workers, services, metricsServer };

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests and finishing active jobs');
    const force = setTimeout(() => process.exit(1), 60_000 + config.SHUTDOWN_DRAIN_MS).unref();
    if (running.app) {
      // Requests arriving with the signal are answered 503 with Retry-After while the listener
      // stays open; closing it at once would reset them (edge-errors.ts installDrainRefusal).
      running.app.drain();
      await delay(config.SHUTDOWN_DRAIN_MS);
      await running.app.close();
    }
    await running.workers?.close();
    await running.metricsServer?.close();
    await running.services.close();
    await infra.stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // Our code leaves no error unhandled (every stream, emitter and timer has its handler), so one
  // that escapes means unknown state: say why in the log, then exit rather than run on. Jobs in
  // flight are taken over when their locks lapse; the embedded Postgres (dev) is stopped first.
  const fatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err }, `${kind}: exiting`);
    setTimeout(() => process.exit(1), 5_000).unref();
    void infra.stop().finally(() => process.exit(1));
  };
  process.once('uncaughtException', fatal('uncaught exception'));
  process.once('unhandledRejection', fatal('unhandled rejection'));
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  const options = {
    name: { type: 'string' },
    tenant: { type: 'string' },
    template: { type: 'string' },
  } as const;
  switch (command) {
    case 'serve':
    case 'worker':
    case 'dev':
      return runRole(config, command);
    case 'migrate': {
      const infra = await resolveInfrastructure(config, { local: LOCAL_SERVERS, log: (l) => process.stderr.write(`${l}\n`) });
      try {
        const result = await migrate(infra.databaseUrl);
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } finally {
        await infra.stop();
      }
      return;
    }
    case 'tenant': {
      if (sub !== 'create') throw new UsageError('expected: tenant create --name N');
      const { values } = parseArgs({ args: rest, options, strict: true });
      const name = requireOption(values, 'name');
      const created = await withDatabase(config, (s) => createTenant(s.prisma, { name, secretTtlDays: config.CLIENT_SECRET_TTL_DAYS }));
      process.stdout.write(`${JSON.stringify(created)}\n`);
      return;
    }
    case 'workspace': {
      if (sub !== 'create') throw new UsageError('expected: workspace create --tenant ID --name N --template T');
      const { values } = parseArgs({ args: rest, options, strict: true });
      const tenantId = requireInt(values, 'tenant');
      const name = requireOption(values, 'name');
      const templateName = requireOption(values, 'template');
      const templateType = (TemplateType as Record<string, TemplateType>)[templateName];
      if (templateType === undefined) {
        throw new UsageError(`--template must be one of ${Object.keys(TemplateType).join(', ')}`);
      }
      const workspace = await withDatabase(config, (s) => createWorkspace(s.prisma, { tenantId, name, templateType }));
      process.stdout.write(`${JSON.stringify(workspace)}\n`);
      return;
    }
    case 'client': {
      if (sub !== 'rotate-secret') throw new UsageError('expected: client rotate-secret --tenant ID');
      const { values } = parseArgs({ args: rest, options, strict: true });
      const tenantId = requireInt(values, 'tenant');
      const rotated = await withDatabase(config, (s) => rotateClientSecret(s.prisma, tenantId, config.CLIENT_SECRET_TTL_DAYS));
      process.stdout.write(`${JSON.stringify(rotated)}\n`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else if (err instanceof UsageError) process.stderr.write(`${err.message}\n\n${USAGE}\n`);
  else process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(err instanceof UsageError ? 64 : 1);
});
