/** One small interface over the embedded database (PGlite) and PostgreSQL, so that both run the same SQL. */

/** A value bound to a `$n` parameter: a list of strings is an SQL array (`$1::text[]`). */
export type SqlValue = string | number | boolean | null | readonly (string | null)[];

/** A database connection (or pool): parameterised queries returning rows, and `close`. */
export interface Database {
  /** Runs one statement with `$1…$n` bound to `params`; the rows it returns (none for most writes). */
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  /** Runs several statements separated by `;` without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `task` on one connection of its own, apart from those `query` uses (session-level advisory locks are held
   * by a connection); the embedded database has one connection, which `task` gets.
   */
  session<T>(task: (connection: Database) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: calls `handler` with the payload of each `NOTIFY` on `channel` from any process on this
   * database (this one included), and `onReconnect` after the listening connection was lost and opened again
   * (notices may have been missed meanwhile).
   */
  readonly listen?: (channel: string, handler: (payload: string) => void, onReconnect?: () => void) => Promise<void>;
  close(): Promise<void>;
}
