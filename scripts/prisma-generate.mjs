// Runs `prisma generate` offline. The Prisma CLI insists on a schema-engine binary even for
// `generate` (which never calls it) and would try to download one; any existing file satisfies
// the check. The generated client itself needs no engine (driver adapter @prisma/adapter-pg).
import { spawnSync } from 'node:child_process';

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
