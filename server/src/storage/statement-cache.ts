import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query afresh; compiling SQL costs more than running a
 * small query. This keeps the most recently used prepared statements (SQLite re-prepares them
 * by itself after a schema change). Kysely runs one query at a time on its single connection,
 * so a statement is never in use twice at once.
 */
export class StatementCache implements SqliteDatabase {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(
    private readonly database: SqliteDatabase,
    private readonly limit = 256,
  ) {}

  get size() {
    return this.statements.size;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Most recently used last: a Map iterates in insertion order.
      this.statements.delete(sql);
    } else {
      statement = this.database.prepare(sql);
      if (this.statements.size >= this.limit) {
        const oldest = this.statements.keys().next().value as string;
        this.statements.delete(oldest);
      }
    }
    this.statements.set(sql, statement);
    return statement;
  }

  close() {
    this.statements.clear();
    this.database.close();
  }
}
