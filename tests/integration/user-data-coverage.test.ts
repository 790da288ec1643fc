import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { APP_BACKENDS, createTestDatabase } from "../support/database.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";

// Every table that holds a user's data (a foreign key to `users`, read from the migrated database's catalogue) is
// covered by the privacy policy's two promises (docs/decisions/0035-retention-and-data-export.md), or is listed below
// with the reason it is not:
//   - "Download my data" (src/privacy/data-export.ts, buildDataExport) reads it into the user's file;
//   - the erasure (src/privacy/retention.ts deletes an inactive account's `users` row; src/users/repository.ts an
//     account its owner deletes) removes it: its foreign key is ON DELETE CASCADE or SET NULL, so the database removes
//     or detaches the rows in the same statement, or the retention job deletes the table's rows itself.
// A migration that adds a table with a user key then fails here until the export reads it and its key cascades, or
// an entry below says why not. That is the point: a new domain (docs/new-domain.md) cannot forget either.
//
// How "the export reads it" is detected: the table names in the query calls (selectFrom, joins) of buildDataExport's
// source. Scanning the function, rather than keeping an exported list of tables next to it, tests what the export
// actually runs: a list would be a second copy to keep in step, and could name a table the queries never read.
// Only buildDataExport's body and the module's functions it calls (its readers, such as exportedReviews) count, so the
// row lock of requestDataExport or the export bookkeeping do not.

const ROOT = join(import.meta.dir, "..", "..");
const EXPORT_FILE = "src/privacy/data-export.ts";
const EXPORT_FUNCTION = "buildDataExport";
const RETENTION_FILE = "src/privacy/retention.ts";

/** Why a table with a user key is left out of the export, or of the erasure. */
interface Exclusion {
  export?: string;
  erasure?: string;
}

/**
 * Tables with a user key that the export or the erasure leave out on purpose, with the reason. An entry that is no
 * longer needed (the table is gone, or is now covered) fails the suite, so the list only holds live decisions.
 */
const EXCLUSIONS: Record<string, Exclusion> = {
  data_exports: { export: "the export files themselves: each file would hold the previous ones" },
  password_reset_tokens: { export: "hashes of single-use secrets; useless to the user and never shown" },
  pubmed_fetch_usage: {
    export: "a per-day counter of PubMed records fetched, for the fair-use allowance; pruned after 31 days",
  },
  revoked_access_tokens: {
    export: "ids of revoked access tokens (a sign-out), kept until they expire; security bookkeeping",
  },
  share_invitations: {
    export:
      "holds a keyed hash of the invited address (which cannot be read back) to send one invitation per address and " +
      "article; the shares the user made are exported as shares_sent",
  },
  stripe_customers: {
    export:
      "the payment provider's customer id, an internal reference; the subscription is exported, and billing " +
      "records are archived before deletion as the law requires (src/privacy/archive.ts)",
  },
};

/** One foreign-key column that refers to `users`, with its ON DELETE action (pg_constraint.confdeltype). */
interface UserKey {
  table: string;
  column: string;
  onDelete: "a" | "r" | "c" | "n" | "d";
}

/** The public tables' columns that refer to `users`, from the database catalogue. */
async function userKeys(handle: DatabaseHandle): Promise<UserKey[]> {
  const { rows } = await sql<UserKey>`
    SELECT c.conrelid::regclass::text AS "table", a.attname AS "column", c.confdeltype AS "onDelete"
    FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.confrelid = 'public.users'::regclass
    ORDER BY 1, 2`.execute(handle.db);
  return rows;
}

/** The source of `name`'s body in `source`: from its declaration to the first line that closes it. */
function functionSource(source: string, name: string): string {
  const start = source.search(new RegExp(`^(?:export )?(?:async )?function ${name}\\b`, "m"));
  if (start < 0) throw new Error(`${name} not found`);
  const end = source.indexOf("\n}\n", start);
  return source.slice(start, end < 0 ? undefined : end);
}

/** Tables named by the Kysely query calls of `code` ("likes", "shares as s"). */
function tablesQueried(code: string, calls = "selectFrom|innerJoin|leftJoin|rightJoin|fullJoin"): Set<string> {
  const re = new RegExp(String.raw`\b(?:${calls})\(\s*["'\x60](\w+)`, "g");
  return new Set([...code.matchAll(re)].map((m) => m[1] as string));
}

/** The tables `name` queries, with those of the functions of the same module it calls (one level: its readers). */
function tablesOfExport(source: string, name: string): Set<string> {
  const body = functionSource(source, name);
  const local = [...source.matchAll(/^(?:export )?(?:async )?function (\w+)/gm)].map((m) => m[1] as string);
  const called = local.filter((f) => f !== name && new RegExp(String.raw`\b${f}\(`).test(body));
  return new Set([body, ...called.map((f) => functionSource(source, f))].flatMap((code) => [...tablesQueried(code)]));
}

const exported = tablesOfExport(readFileSync(join(ROOT, EXPORT_FILE), "utf8"), EXPORT_FUNCTION);
const retention = readFileSync(join(ROOT, RETENTION_FILE), "utf8");
const deletedByRetention = tablesQueried(retention, "deleteFrom");

/**
 * What is missing for the tables of `keys`, as readable lines (empty when every table is covered or excluded), and
 * the exclusions that are not needed.
 */
function coverage(keys: UserKey[]): { missing: string[]; stale: string[] } {
  const missing: string[] = [];
  const needed = new Set<string>();
  for (const table of [...new Set(keys.map((k) => k.table))]) {
    const excluded = EXCLUSIONS[table] ?? {};
    if (!exported.has(table)) {
      if (excluded.export) needed.add(`${table}.export`);
      else missing.push(`${table}: not in "Download my data" (${EXPORT_FILE} ${EXPORT_FUNCTION})`);
    }
    for (const key of keys.filter((k) => k.table === table)) {
      // Cascade or set null: deleting the users row removes or detaches these rows; otherwise the delete would fail
      // (no action, restrict) or leave them (set default), unless the retention job deletes them first.
      if (key.onDelete === "c" || key.onDelete === "n" || deletedByRetention.has(table)) continue;
      if (excluded.erasure) needed.add(`${table}.erasure`);
      else missing.push(`${table}.${key.column}: not erased with the account (ON DELETE CASCADE or SET NULL)`);
    }
  }
  const stale = Object.entries(EXCLUSIONS).flatMap(([table, e]) =>
    (["export", "erasure"] as const)
      .filter((what) => e[what] !== undefined && !needed.has(`${table}.${what}`))
      .map((what) => `${table}.${what}: excluded, but the table is covered or has no user key: remove the entry`),
  );
  return { missing, stale };
}

for (const backend of APP_BACKENDS) {
  describe(`user data: export and erasure cover every table with a user key (${backend})`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await createTestDatabase(backend);
    });
    afterAll(async () => {
      await handle?.close();
    });

    test("every table with a user key is exported and erased, or excluded with a reason", async () => {
      const keys = await userKeys(handle);
      // The catalogue query found the user's tables (a query that found none would pass).
      expect(keys.map((k) => k.table)).toContain("literature_reviews");
      expect(exported).toContain("literature_reviews");
      // The erasure is the deletion of the users row: the retention job does delete it.
      expect(tablesQueried(retention, "deleteFrom")).toContain("users");
      const { missing, stale } = coverage(keys);
      expect(missing).toEqual([]);
      expect(stale).toEqual([]);
    });

    test("a table with a user key added without export or erasure is caught", async () => {
      await sql`CREATE TABLE user_data_probe (user_id uuid NOT NULL REFERENCES users(id))`.execute(handle.db);
      try {
        // Only the probe's lines: the check of the real tables is the test above.
        const missing = coverage(await userKeys(handle)).missing.filter((line) => line.startsWith("user_data_probe"));
        expect(missing).toEqual([
          `user_data_probe: not in "Download my data" (${EXPORT_FILE} ${EXPORT_FUNCTION})`,
          "user_data_probe.user_id: not erased with the account (ON DELETE CASCADE or SET NULL)",
        ]);
      } finally {
        await sql`DROP TABLE user_data_probe`.execute(handle.db);
      }
    });
  });
}
