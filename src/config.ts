import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/** `true`/`1`/`yes` and `false`/`0`/`no`, so that env files read naturally. */
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration such as `500ms`, `5s`, `30m`, `2h` or `3d`, in milliseconds. */
const durationMs = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?(ms|s|m|h|d)$/, 'expected a number and a unit: ms, s, m, h or d (e.g. 30m)')
  .transform((text) => {
    const [, amount, unit] = /^([\d.]+)(ms|s|m|h|d)$/.exec(text)!;
    return Math.round(Number(amount) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS]);
  })
  .pipe(z.number().int().positive());

/** Comma-separated durations (the webhook retry schedule). */
const durationList = z
  .string()
  .transform((text) => text.split(',').map((part) => part.trim()))
  .pipe(z.array(durationMs).min(1));

/** Names proxy-addr (Fastify's trustProxy) understands for common private ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  // An IPv4 netmask (10.0.0.0/255.0.0.0) or a prefix length that fits the family.
  if (family === 4 && isIP(prefix) === 4) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which peers may tell us the client's address in X-Forwarded-For, in the forms Fastify's
 * trustProxy takes: `false` (the socket's address; anyone could claim any address otherwise),
 * `true` (every peer: only behind a proxy that overwrites the header), a hop count, or
 * comma-separated addresses/CIDRs of the proxies.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): boolean | number | string[] => {
    if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
    if (/^\d+$/.test(raw)) return Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim());
    const invalid = entries.filter((entry) => !isProxyAddress(entry));
    if (invalid.length) {
      ctx.addIssue({
        code: 'custom',
        message: `expected true, false, a hop count or comma-separated addresses/CIDRs; not ${invalid.map((e) => JSON.stringify(e)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  /** Base URL clients reach this service at; used in upload locations and signed file links. */
  PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).optional(),
  /** Local state of the dev role and the default blob store: embedded Postgres, keys, files, outbox. */
  DATA_DIR: z.string().default('.data'),
  /** Ports of the embedded Postgres and local redis-server that `dev` starts when the URLs are unset. */
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  LOCAL_REDIS_PORT: z.coerce.number().int().min(1).max(65535).default(63790),
  /** Where files live: `local` (DATA_DIR/blobs and DATA_DIR/uploads, one machine) or `s3` (an S3-compatible bucket, shared by every machine). */
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** The server of an S3-compatible store (MinIO, Ceph RGW); unset: AWS S3. */
  S3_ENDPOINT: z.url().optional(),
  /** Bucket in the URL path instead of the host name (MinIO and most self-hosted stores). */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** Credentials of the bucket; unset: the AWS SDK's own chain (profile, instance or task role). */
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
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
  /** Failed /connect/token attempts per client id, and per client address, per minute (then 429). */
  TOKEN_FAILURES_PER_CLIENT_PER_MINUTE: positiveInt.default(10),
  TOKEN_FAILURES_PER_ADDRESS_PER_MINUTE: positiveInt.default(30),
  /** Failed reviewer logins per client address per minute, whatever the emails (then 429): password spraying. */
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: positiveInt.default(30),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Document Processing <no-reply@localhost>'),
  PREPROCESS_CONCURRENCY: positiveInt.default(2),
  DETECT_CONCURRENCY: positiveInt.default(2),
  MAIL_CONCURRENCY: positiveInt.default(4),
  /**
   * Threads of a worker process that run engine work (models, PDF parsing and splitting). Default:
   * one fewer than the machine's cores (at least one), leaving a core to the event loop, Postgres
   * and Redis; a worker on a machine of its own may take every core.
   */
  ENGINE_THREADS: positiveInt.default(() => Math.max(1, availableParallelism() - 1)),
  /** tesseract processes a worker runs at once, whatever its engine threads and documents (one core each). Default: the machine's cores. */
  OCR_PROCESSES: positiveInt.default(() => availableParallelism()),
  /**
   * Heap limit of each engine thread, in MB: a document needing more fails its attempt, never the
   * process (the engines alone need about 100; a text page's work keeps about 120 live). V8 lets
   * garbage pile up to about half the limit before its first full collection: at 2048 a thread's
   * heap grew with the pages (385 MB after 200 text pages, toward 1 GB), at 1024 it stays near
   * 240 MB whatever the page count.
   */
  ENGINE_THREAD_MAX_MEMORY_MB: z.coerce.number().int().min(256).default(1024),
  /**
   * Seconds an engine thread keeps PP-OCR's sessions and the English word list (loaded by the
   * first receipt or image PP-OCR reads) unused before it lets them go; the next one loads them
   * again (about a second of CPU).
   */
  ENGINE_IDLE_RELEASE_SECONDS: positiveInt.default(300),
  /**
   * PP-OCR's detector reads an input of more than this many pixels in bands of rows, one after the
   * other, its working memory one band's (800000: about 130 MB at a time for a 300 dpi page instead
   * of 250-390 MB); 0, the default, reads the whole input in one run, as the receipts' accuracy
   * figures were measured (in bands a few fields read differently, paddle-ocr.ts).
   */
  PPOCR_DETECTOR_BAND_PIXELS: z.coerce.number().int().min(0).default(0),
  /** The api answers 503 with Retry-After while its event loop's mean delay (sampled each second) is past this, in ms; 0: never. */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(200),
  /**
   * On SIGTERM/SIGINT the api answers every new request 503 with Retry-After for this long, its
   * listener still open, before it closes the listener and finishes the requests under way: a
   * load balancer sees /ready fail and stops sending, and requests already on their way get an
   * answer instead of a connection reset. 0: close at once.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  STUCK_TASK_MINUTES: positiveInt.default(60),
  SWEEP_INTERVAL_SECONDS: positiveInt.default(60),
  /** Delays between the attempts of a webhook delivery; the delivery fails after the last (default: 8 attempts over 27.5 h). */
  WEBHOOK_RETRY_SCHEDULE: durationList.prefault('5s,5m,30m,2h,5h,10h,10h'),
  /** A webhook endpoint whose every attempt failed for this long is disabled (the reason shows over the API). */
  WEBHOOK_DISABLE_AFTER: durationMs.prefault('3d'),
  /** How long one webhook attempt may take (connection, request and answer). */
  WEBHOOK_TIMEOUT_MS: positiveInt.default(15_000),
  /** How often each worker hands new webhook deliveries to the queue. */
  WEBHOOK_DISPATCH_INTERVAL_MS: positiveInt.default(1000),
  WEBHOOK_CONCURRENCY: positiveInt.default(8),
  /** Finished webhook deliveries (and their events) are kept this many days. */
  WEBHOOK_HISTORY_DAYS: positiveInt.default(30),
  SEED_CLIENT_ID: z.string().min(8).optional(),
  SEED_CLIENT_SECRET: z.string().min(16).optional(),
  /**
   * ffmpeg and ffprobe from the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe
   * where PATH has none (media-tools.ts); false: the system's only.
   */
  BUNDLED_MEDIA_TOOLS: flag.default(true),
  /** Optional OpenAI-compatible /v1/audio/transcriptions endpoint (a Whisper server): transcribes every language, English included, instead of pocketsphinx. */
  ASR_URL: z.url().optional(),
  ASR_API_KEY: z.string().optional(),
  /** The `model` sent to ASR_URL (faster-whisper servers load the one named); unset: whisper-1. */
  ASR_MODEL: z.string().min(1).optional(),
  /** Prometheus metrics: on a listener of their own at this port (api and worker processes alike). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Bearer token scrapers must send: /metrics on the api port when METRICS_PORT is unset, else on METRICS_PORT. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Operator credential of the queue dashboard (/admin/queues): Basic user and password, or a Bearer token; off when none is set. */
  ADMIN_USER: z.string().min(1).optional(),
  ADMIN_PASSWORD: z.string().min(12).optional(),
  ADMIN_TOKEN: z.string().min(16).optional(),
}).superRefine((env, ctx) => {
  if (env.BLOB_STORE === 's3' && env.S3_BUCKET === undefined) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when BLOB_STORE is s3' });
  if ((env.AWS_ACCESS_KEY_ID === undefined) !== (env.AWS_SECRET_ACCESS_KEY === undefined)) {
    ctx.addIssue({ code: 'custom', path: [env.AWS_ACCESS_KEY_ID === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'], message: 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together' });
  }
  if ((env.ADMIN_USER === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    ctx.addIssue({ code: 'custom', path: [env.ADMIN_USER === undefined ? 'ADMIN_USER' : 'ADMIN_PASSWORD'], message: 'ADMIN_USER and ADMIN_PASSWORD are set together' });
  }
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
