import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface StoredSecret {
  clientId: string;
  secretVersion: number;
  secretHash: string;
}

/**
 * The client secrets this process has verified with scrypt, so that a client asking for tokens
 * again skips scrypt (and is not locked out by someone else's failed guesses, see
 * client-credentials.service.ts). Only a keyed HMAC is kept, one per client, under a key that
 * lives in memory for the life of the process. It covers the secret version and the stored hash:
 * a rotation, even by hand in SQL, makes the remembered entry stop matching by itself.
 */
export class VerifiedSecrets {
  private readonly key = randomBytes(32);
  private readonly macs = new Map<string, Buffer>();

  /** Clients remembered at most (the least recently verified are forgotten first). */
  constructor(private readonly capacity = 10_000) {}

  private mac(stored: StoredSecret, presented: string): Buffer {
    return createHmac('sha256', this.key)
      .update(JSON.stringify([stored.clientId, stored.secretVersion, stored.secretHash]))
      .update(presented)
      .digest();
  }

  matches(stored: StoredSecret, presented: string): boolean {
    const known = this.macs.get(stored.clientId);
    return known !== undefined && timingSafeEqual(known, this.mac(stored, presented));
  }

  remember(stored: StoredSecret, presented: string): void {
    this.macs.delete(stored.clientId);
    this.macs.set(stored.clientId, this.mac(stored, presented));
    if (this.macs.size > this.capacity) {
      const oldest = this.macs.keys().next().value;
      if (oldest !== undefined) this.macs.delete(oldest);
    }
  }
}
