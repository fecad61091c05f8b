import pg from 'pg';

/** What every authenticated request must know of the caller's API client. */
export interface ClientStanding {
  clientId: string;
  secretVersion: number;
  secretExpiresAt: Date;
}

export type ClientStandingLoader = (tenantId: number) => Promise<ClientStanding | null>;

/** The channel the "ApiClient" triggers notify (migration 20261124000000_api_client_notify). */
export const API_CLIENT_CHANNEL = 'api_client_changed';
/** Organizations remembered at most; beyond it the cache starts over (they are few in practice). */
const MAX_ENTRIES = 10_000;
/**
 * A second line of defence only: notifications are what keeps entries true. A listening session
 * that hangs without an error (a half-open TCP connection) would stop them silently; keep-alive
 * finds that eventually, and no entry outlives this in the meantime.
 */
const MAX_AGE_MS = 60_000;
const RECONNECT_MIN_MS = 500;
/** How the listening session shows in pg_stat_activity. */
export const APPLICATION_NAME = 'docproc-client-secret-cache';
const RECONNECT_MAX_MS = 30_000;

interface Entry {
  standing: ClientStanding | null;
  loadedAt: number;
}

/**
 * The secret version of each organization's client, kept in memory so that checking a token
 * against it (on every request: rotation must stop old tokens) costs no query.
 *
 * Entries are true only because Postgres tells us of every change: a trigger on "ApiClient"
 * notifies the tenant id when a change commits, and we drop that entry. So the cache is used only
 * while our LISTEN session is up; when it drops, notifications may be lost, so the cache is
 * emptied and every lookup goes to the database until the session is back. A rotation reaches
 * every api instance as fast as Postgres delivers a notification (well under a millisecond here).
 *
 * The listening session opens on first use, so processes that never authenticate (workers) never
 * hold one.
 */
export class ClientSecretCache {
  private readonly entries = new Map<number, Entry>();
  /** Bumped on every notification and session change: a lookup that raced one is not cached. */
  private generation = 0;
  private session: pg.Client | undefined;
  private listening = false;
  private started = false;
  private closed = false;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private heard = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly load: ClientStandingLoader,
  ) {}

  /** True while notifications arrive, i.e. while lookups may be answered from memory. */
  get isListening(): boolean {
    return this.listening;
  }

  /** Changes announced to this cache so far (lets a test wait for one to arrive). */
  get changesHeard(): number {
    return this.heard;
  }

  async get(tenantId: number): Promise<ClientStanding | null> {
    if (!this.started) {
      this.started = true;
      void this.connect();
    }
    if (this.listening) {
      const hit = this.entries.get(tenantId);
      if (hit && Date.now() - hit.loadedAt < MAX_AGE_MS) return hit.standing;
    }
    const generation = this.generation;
    const standing = await this.load(tenantId);
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(tenantId, { standing, loadedAt: Date.now() });
    }
    return standing;
  }

  /** Opens the listening session now instead of on first use; resolves once it listens or failed. */
  async listen(): Promise<void> {
    this.started = true;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.forget();
    const session = this.session;
    this.session = undefined;
    await session?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.session) return this.connecting ?? Promise.resolve();
    const session = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true, application_name: APPLICATION_NAME });
    this.session = session;
    const attempt = this.open(session).finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async open(session: pg.Client): Promise<void> {
    const lost = () => {
      if (this.session !== session) return;
      this.session = undefined;
      this.forget();
      session.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    session.on('error', lost);
    session.on('end', lost);
    session.on('notification', (message) => {
      if (this.session !== session || message.channel !== API_CLIENT_CHANNEL) return;
      this.heard += 1;
      this.generation += 1;
      const tenantId = Number(message.payload);
      if (Number.isInteger(tenantId)) this.entries.delete(tenantId);
      else this.entries.clear();
    });
    try {
      await session.connect();
      await session.query(`LISTEN ${API_CLIENT_CHANNEL}`);
    } catch {
      lost();
      return;
    }
    if (this.session !== session) return;
    // Nothing was cached while the session was down; from here on every change is heard.
    this.generation += 1;
    this.listening = true;
    this.reconnectDelay = RECONNECT_MIN_MS;
  }

  /** The session is gone: what we remember may have changed unheard. */
  private forget(): void {
    this.listening = false;
    this.generation += 1;
    this.entries.clear();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, this.reconnectDelay);
    this.reconnectTimer.unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }
}
