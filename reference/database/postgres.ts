/**
 * PostgreSQL through `pg`: a pool for queries, a second pool for `session` (a lock holder never waits for a
 * connection its own queries need), and one connection that `LISTEN`s, opened again when it is lost.
 */
import pg from 'pg';
import type { Database, SqlValue } from './types.js';

/** Connections the query pool opens at most. */
const POOL_SIZE = 10;
/** Connections `session` holds at most (one per advisory lock held at once). */
const SESSION_POOL_SIZE = 30;
/** Wait before opening a lost listening connection again. */
const RECONNECT_MS = 500;

/** Connects to the PostgreSQL server at `url`; fails when it cannot be reached. */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  const sessions = new pg.Pool({ connectionString: url, max: SESSION_POOL_SIZE });
  // Idle connections that fail (the server restarted) are dropped by the pool; the error must not crash the process.
  pool.on('error', () => undefined);
  sessions.on('error', () => undefined);
  const client = await pool.connect();
  client.release();
  const listener = new Listener(url);
  const wrap = (run: (sql: string, params: SqlValue[]) => Promise<pg.QueryResult>): Database => ({
    async query<R extends object>(sql: string, params: readonly SqlValue[] = []) {
      return (await run(sql, [...params])).rows as R[];
    },
    async exec(sql: string) {
      await run(sql, []);
    },
    session: (task) => withSession(task),
    listen: (channel, handler, onReconnect) => listener.listen(channel, handler, onReconnect),
    close: async () => {
      listener.close();
      await Promise.all([pool.end(), sessions.end()]);
    },
  });
  const withSession = async <T>(task: (connection: Database) => Promise<T>): Promise<T> => {
    const connection = await sessions.connect();
    let broken = false;
    try {
      return await task(wrap((sql, params) => connection.query(sql, params)));
    } catch (error) {
      broken = error instanceof Error && !('code' in error);
      throw error;
    } finally {
      // A connection that failed outside SQL may hold a lock or a transaction: it is closed, not reused.
      connection.release(broken);
    }
  };
  return wrap((sql, params) => pool.query(sql, params));
}

/** The connection that listens; channels and handlers are kept so that a new connection listens again. */
class Listener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly handlers = new Map<string, ((payload: string) => void)[]>();
  private readonly reconnected: (() => void)[] = [];
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, handler: (payload: string) => void, onReconnect?: () => void): Promise<void> {
    const first = !this.handlers.has(channel);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    if (onReconnect !== undefined) this.reconnected.push(onReconnect);
    const client = await this.connect();
    if (first) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  }

  close(): void {
    this.closed = true;
    void this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private connect(): Promise<pg.Client> {
    if (this.client !== null) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', ({ channel, payload }) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(payload ?? '');
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      setTimeout(() => void this.reopen(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (this.closed) {
      await client.end();
      throw new Error('The database is closed.');
    }
    this.client = client;
    return client;
  }

  /** Listens again after the connection was lost (retrying until it works or the database is closed). */
  private async reopen(): Promise<void> {
    if (this.closed) return;
    try {
      await this.connect();
    } catch {
      setTimeout(() => void this.reopen(), RECONNECT_MS).unref();
      return;
    }
    for (const callback of this.reconnected) callback();
  }
}
