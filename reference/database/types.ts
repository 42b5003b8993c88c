/** One small interface over the embedded database (PGlite) and PostgreSQL, so that both run the same SQL. */

/** A value bound to a `$n` parameter. */
export type SqlValue = string | number | boolean | null;

/** A database connection (or pool): parameterised queries returning rows, and `close`. */
export interface Database {
  /** Runs one statement with `$1…$n` bound to `params`; the rows it returns (none for most writes). */
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  /** Runs several statements separated by `;` without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
