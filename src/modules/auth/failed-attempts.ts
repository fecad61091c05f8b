import type { Redis } from 'ioredis';

/** One counter of failed attempts (per client id, per address...) and how many a window allows. */
export interface AttemptLimit {
  key: string;
  max: number;
}

export type Reservation = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Undoes a reservation; a key that expired meanwhile stays absent (a bare DECR would recreate it without expiry). */
const RELEASE_SCRIPT = `
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end
end
return 0`;

/**
 * Failed authentication attempts counted in Redis (shared by every api instance) in fixed
 * windows. An attempt is counted BEFORE the expensive check runs and given back when it
 * succeeds, so concurrent guesses cannot all pass the check while none has failed yet. Like the
 * request rate limits, a Redis outage lets attempts through rather than refusing everyone.
 */
export class FailedAttempts {
  constructor(
    private readonly redis: Redis,
    private readonly options: { windowMs: number; prefix?: string; onError?: (err: unknown) => void },
  ) {}

  private keyOf(limit: AttemptLimit): string {
    return `${this.options.prefix ?? 'ratelimit:'}${limit.key}`;
  }

  /** Counts one attempt against every limit; refused when any of them is past its max. */
  async reserve(limits: AttemptLimit[]): Promise<Reservation> {
    const multi = this.redis.multi();
    for (const limit of limits) {
      const key = this.keyOf(limit);
      // The window starts with the first attempt and is not extended by later ones.
      multi.set(key, 0, 'PX', this.options.windowMs, 'NX').incr(key).pttl(key);
    }
    let replies: Array<[Error | null, unknown]> | null;
    try {
      replies = await multi.exec();
    } catch (err) {
      this.options.onError?.(err);
      return { allowed: true };
    }
    let retryAfterMs = 0;
    for (const [index, limit] of limits.entries()) {
      const count = Number(replies?.[index * 3 + 1]?.[1]);
      const ttl = Number(replies?.[index * 3 + 2]?.[1]);
      if (count > limit.max) retryAfterMs = Math.max(retryAfterMs, ttl > 0 ? ttl : this.options.windowMs);
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } : { allowed: true };
  }

  /** The attempt succeeded: it does not count as a failure. */
  async release(limits: AttemptLimit[]): Promise<void> {
    try {
      await this.redis.eval(RELEASE_SCRIPT, limits.length, ...limits.map((limit) => this.keyOf(limit)));
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
