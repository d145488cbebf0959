import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  description: string | null;
}

/**
 * What Kysely's Migrator asks of the database (does its schema and its tables exist), read from
 * the catalog's snapshot alone, and of Hearth's own schema (`current_schema()`) only.
 *
 * Kysely's own introspector reads every schema of the database and looks each one up again by
 * name (`has_schema_privilege(name)`, `pg_get_serial_sequence(text)`): a schema or table dropped
 * while that statement runs (another install's schema removed, another instance's migration
 * dropping a table) is still in its snapshot but no longer found by name, so the start failed
 * with `schema "…" does not exist` naming someone else's schema (docs/devicehub.md#several-instances).
 */
class SchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: introspection works on any schema
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    // JIT off for this one statement: on a catalog with many dropped schemas (a shared server, a test
    // database) PostgreSQL's estimate passes jit_above_cost and it compiled the query with LLVM for
    // about half a second of CPU, twice per start, to read a handful of rows.
    const { rows } = await this.db.transaction().execute(async (trx) => {
      await sql`set local jit = off`.execute(trx);
      return sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
        typ.typname as type, tns.nspname as type_schema, a.attnotnull as not_null,
        a.atthasdef as has_default,
        exists (
          select from pg_catalog.pg_depend dep
          join pg_catalog.pg_class seq on seq.oid = dep.objid and seq.relkind = 'S'
          where dep.refobjid = c.oid and dep.refobjsubid = a.attnum and dep.deptype in ('a', 'i')
        ) as auto_incrementing,
        d.description
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      left join pg_catalog.pg_description d
        on d.objoid = c.oid and d.classoid = 'pg_catalog.pg_class'::regclass and d.objsubid = a.attnum
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(trx);
    });
    const internal = new Set<string>([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        ...(row.description !== null ? { comment: row.description } : {}),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's PostgreSQL dialect, introspecting Hearth's own schema only (SchemaIntrospector). */
export class HearthPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: introspection works on any schema
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaIntrospector(db);
  }
}
