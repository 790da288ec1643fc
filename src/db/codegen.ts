import {
  ArrayExpressionNode,
  type ExpressionNode,
  generate,
  GenericExpressionNode,
  IdentifierNode,
  PostgresDialect,
  UnionExpressionNode,
} from "kysely-codegen";
import type { Kysely } from "kysely";
import { openDatabase, type Database } from "./database.ts";
import { migrateToLatest } from "./migrator.ts";

/** Where `npm run db:types` writes the row types, relative to the repository root. */
export const SCHEMA_GEN_PATH = "src/db/schema.gen.ts";

/** The types src/db/column-types.ts gives to text and jsonb columns, imported by the generated file. */
const CUSTOM_IMPORTS: Record<string, string> = Object.fromEntries(
  [
    "AbstractSection",
    "ArchiveReason",
    "BillingInterval",
    "DataExportStatus",
    "EmailOutboxStatus",
    "JobStatus",
    "RecordKind",
    "ReviewStatus",
    "SubscriptionSource",
    "SubscriptionStatus",
    "SubscriptionType",
  ].map((name) => [name, `./column-types.ts#${name}`]),
);

/** A type name, or a generic type applied to `args` (`type("Generated", type("JobStatus"))`). */
function type(name: string, ...args: ExpressionNode[]): ExpressionNode {
  return args.length ? new GenericExpressionNode(name, args) : new IdentifierNode(name);
}

/** `a | b | …` of type names or nodes. */
function union(...members: (string | ExpressionNode)[]): ExpressionNode {
  return new UnionExpressionNode(members.map((m) => (typeof m === "string" ? type(m) : m)));
}

/** A jsonb column written as JSON text (JSON.stringify) and read back parsed, its shape checked where it is read. */
const JSON_TEXT = type("ColumnType", type("unknown"), union("string", "undefined"), type("string"));

/**
 * Column types the catalog cannot tell: literal unions of status-like text columns (their values are in
 * column-types.ts), the jsonb columns as the code writes them, and bigint columns as the drivers return them.
 * Keys are "table.column"; each node replaces the column type, Generated included (kysely-codegen appends `| null`
 * to a nullable column's). Nodes rather than strings: kysely-codegen parses strings with the TypeScript compiler API,
 * which the native TypeScript 7 compiler of this project does not ship.
 */
export const COLUMN_OVERRIDES: Record<string, ExpressionNode> = {
  "literature_reviews.status": type("Generated", type("ReviewStatus")),
  "subscriptions.status": type("SubscriptionStatus"),
  "subscriptions.subscription_type": type("SubscriptionType"),
  "subscriptions.billing_interval": type("Generated", type("BillingInterval")),
  "subscriptions.source": type("Generated", type("SubscriptionSource")),
  "jobs.status": type("Generated", type("JobStatus")),
  "data_exports.status": type("Generated", type("DataExportStatus")),
  "email_outbox.status": type("EmailOutboxStatus"),
  "account_archives.reason": type("ArchiveReason"),
  "articles.record_kind": type("Generated", type("RecordKind")),
  "articles.abstract_sections": type(
    "ColumnType",
    new ArrayExpressionNode(type("AbstractSection")),
    type("string"),
    type("string"),
  ),
  "articles.author_list": JSON_TEXT,
  "literature_reviews.topic_concepts": JSON_TEXT,
  "literature_reviews.search_filters": JSON_TEXT,
  "literature_reviews.search_report": JSON_TEXT,
  "literature_reviews.evidence_table": JSON_TEXT,
  "jobs.payload": JSON_TEXT,
  "account_archives.record": type("unknown"),
  "data_exports.content": type("unknown"),
  // Creation order (bigint identity, read as text); never written.
  "literature_reviews.seq": type("ColumnType", type("string"), type("never"), type("never")),
  // bigint: postgres.js returns it as a string, PGlite as a number; cast in SQL when reading.
  "search_lexeme_stats.df": type(
    "ColumnType",
    union("string", "number"),
    union("number", "string"),
    union("number", "string"),
  ),
  "search_lexeme_stats.title_df": type(
    "ColumnType",
    union("string", "number"),
    union("number", "string", "undefined"),
    union("number", "string"),
  ),
};

/**
 * Row types of the schema of `db` (already migrated), as TypeScript source: kysely-codegen's PostgreSQL introspector,
 * which PGlite answers as a server does. `date` columns are typed string, as the code reads them (ISO YYYY-MM-DD).
 * Deterministic: the same schema gives the same text.
 * @throws the introspection's error.
 */
export async function introspectSchemaTypes(db: Database): Promise<string> {
  return await generate({
    db: db as unknown as Kysely<unknown>,
    dialect: new PostgresDialect({ dateParser: "string" }),
    // Kysely's own migration bookkeeping.
    excludePattern: "kysely_*",
    outFile: null,
    customImports: CUSTOM_IMPORTS,
    overrides: { columns: COLUMN_OVERRIDES },
  });
}

/**
 * Row types of the schema that migrations/ builds (what `npm run db:types` writes to SCHEMA_GEN_PATH): migrates a
 * fresh in-memory PGlite and introspects it.
 * @throws the migration's or the introspection's error.
 */
export async function generateSchemaTypes(): Promise<string> {
  const handle = openDatabase({ dataDir: "memory://" });
  try {
    await migrateToLatest(handle.db);
    return await introspectSchemaTypes(handle.db);
  } finally {
    await handle.close();
  }
}
