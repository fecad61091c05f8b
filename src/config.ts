import { z } from 'zod';

/** `true`/`1`/`yes` and `false`/`0`/`no`, so that env files read naturally. */
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Base URL clients reach this service at; used in upload locations and signed file links. */
  PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).optional(),
  /** Local state of the dev role and the default blob store: embedded Postgres, keys, files, outbox. */
  DATA_DIR: z.string().default('.data'),
  /** Ports of the embedded Postgres and local redis-server that `dev` starts when the URLs are unset. */
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  LOCAL_REDIS_PORT: z.coerce.number().int().min(1).max(65535).default(63790),
  /** PKCS#8 PEM of the ES256 token signing key; generated once into DATA_DIR when absent. */
  JWT_PRIVATE_KEY: z.string().optional(),
  JWT_ISSUER: z.string().default('docproc'),
  TOKEN_TTL_SECONDS: positiveInt.default(3600),
  CLIENT_SECRET_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(365),
  /** HMAC key of signed file URLs; generated once into DATA_DIR when absent. */
  FILE_URL_SECRET: z.string().min(32).optional(),
  SIGNED_URL_TTL_SECONDS: positiveInt.default(3600),
  MAX_SOURCE_BYTES: positiveInt.default(1024 * 1024 * 1024),
  SOURCE_URL_ALLOW_PRIVATE: flag.default(false),
  SOURCE_URL_CHECK_TIMEOUT_MS: positiveInt.default(5000),
  DOWNLOAD_TIMEOUT_MS: positiveInt.default(10 * 60 * 1000),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(1200),
  RATE_LIMIT_HEAVY_PER_MINUTE: positiveInt.default(60),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Document Processing <no-reply@localhost>'),
  PREPROCESS_CONCURRENCY: positiveInt.default(2),
  DETECT_CONCURRENCY: positiveInt.default(2),
  MAIL_CONCURRENCY: positiveInt.default(4),
  STUCK_TASK_MINUTES: positiveInt.default(60),
  SWEEP_INTERVAL_SECONDS: positiveInt.default(60),
  SEED_CLIENT_ID: z.string().min(8).optional(),
  SEED_CLIENT_SECRET: z.string().min(16).optional(),
  /** Optional OpenAI-compatible /v1/audio/transcriptions endpoint for languages pocketsphinx lacks. */
  ASR_URL: z.url().optional(),
  ASR_API_KEY: z.string().optional(),
});

export type Config = Readonly<z.infer<typeof envSchema>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; every problem is listed, not only the first. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables (common in compose files and .env templates) mean "unset".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return Object.freeze(parsed.data);
}

export function publicBaseUrl(config: Config): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}
