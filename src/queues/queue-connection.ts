import { Redis } from 'ioredis';

/**
 * The BullMQ connection: commands wait for a reconnect instead of failing (BullMQ requires
 * maxRetriesPerRequest null). Callers on a request path bound the wait themselves.
 */
export function createQueueRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', () => undefined); // reconnects on its own; /ready reports the outage
  return redis;
}
