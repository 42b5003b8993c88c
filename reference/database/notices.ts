/** Notices to every process sharing one PostgreSQL database (`NOTIFY` / `LISTEN`), this one included. */
import type { Database } from './types.js';

/** Sends and follows notices on named channels. */
export interface Notices {
  /** Sends `payload` on `channel` to every listening process. */
  notify(channel: string, payload: string): Promise<void>;
  /** Calls `handler` with each payload sent on `channel` from now on. */
  listen(channel: string, handler: (payload: string) => void): Promise<void>;
}

/** The notices of `db` (PostgreSQL); null for a database only this process uses (embedded). */
export function databaseNotices(db: Database): Notices | null {
  const { listen } = db;
  if (listen === undefined) return null;
  return {
    async notify(channel, payload) {
      await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, handler) => listen(channel, handler),
  };
}
