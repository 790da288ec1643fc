import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { EMBEDDED_SETTINGS, openDatabase, type DatabaseHandle } from "../../src/db/database.ts";
import { EmbeddedDialect, EmbeddedEngine } from "../../src/db/embedded.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { DB } from "../../src/db/types.ts";

/** A database backend of the tests: embedded PGlite, or the PostgreSQL server of TEST_DATABASE_URL. */
export type Backend = "pglite" | "postgres";

/**
 * The backends of the database-layer suites (repositories, migrations, the search index, the job queue: code whose
 * SQL or session behaviour could differ between the two): PGlite always, and PostgreSQL too when TEST_DATABASE_URL
 * is set. docs/decisions/0040-test-suite-budget.md lists which suites are layer suites.
 */
export const LAYER_BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * The one backend of the suites that test HTTP and service behaviour through the app: PostgreSQL when
 * TEST_DATABASE_URL is set (production's path), else PGlite. The layer suites (LAYER_BACKENDS) and the browser
 * tests, whose server runs on embedded PGlite, keep the embedded path covered
 * (docs/decisions/0040-test-suite-budget.md).
 */
const APP_BACKEND: Backend = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/** APP_BACKEND as a list, for suites written as `for (const backend of APP_BACKENDS) describe(…)`. */
export const APP_BACKENDS: Backend[] = [APP_BACKEND];

const MIGRATIONS_DIR = join(import.meta.dir, "..", "..", "migrations");

/**
 * The installed PGlite's version (its package.json, next to the dist/ folder of its entry point): names the snapshot.
 */
const pgliteVersion: string = JSON.parse(
  readFileSync(join(dirname(Bun.resolveSync("@electric-sql/pglite", import.meta.dir)), "..", "package.json"), "utf8"),
).version;

/**
 * 12 hex digits of the SHA-256 of every migration file's name and content: names the PostgreSQL template database,
 * so that a changed, added or removed migration gets a new template instead of a stale one.
 */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) {
    if (!f.endsWith(".ts")) continue;
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(MIGRATIONS_DIR, f)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 12);
}

/** Opens in-memory PGlite like openDatabase does (same driver and start parameters), from a tarball if given. */
function openPglite(loadDataDir?: Blob | File): DatabaseHandle & { pglite: PGlite } {
  const embedded = new EmbeddedEngine({
    dataDir: "memory://",
    options: { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS], loadDataDir },
  });
  const db = new Kysely<DB>({ dialect: new EmbeddedDialect(embedded) });
  return { db, kind: "pglite", embedded, pglite: embedded.current, close: () => db.destroy() };
}

// PGlite's initdb and the migrations cost about 3 s of CPU per database; starting from the data folder of one
// migrated database (a 40 MB uncompressed tarball) costs about 0.5 s. `bun test --parallel` evaluates each test
// file in a fresh module registry, so the tarball is kept on disk too, in the system's temporary folder, named by the
// migrations' hash and PGlite's version: built by the first test file that needs it, read by the others.
let pgliteSnapshot: Promise<Blob> | undefined;
function migratedPgliteSnapshot(): Promise<Blob> {
  pgliteSnapshot ??= (async () => {
    const path = join(tmpdir(), `litreview-test-pglite-${pgliteVersion}-${migrationsHash()}.tar`);
    if (existsSync(path)) return new Blob([readFileSync(path)]);
    const handle = openPglite();
    try {
      await migrateToLatest(handle.db);
      const tarball = await handle.pglite.dumpDataDir("none");
      // Written under a name of its own, then renamed: a parallel worker never reads a half-written file.
      const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
      writeFileSync(partial, new Uint8Array(await tarball.arrayBuffer()));
      renameSync(partial, path);
      return tarball;
    } finally {
      await handle.close();
    }
  })();
  return pgliteSnapshot;
}

/**
 * Ensures the PostgreSQL template database `lr_template_<migrations hash>` exists, migrated, and returns its name.
 * Parallel test processes may all find it missing: an advisory lock lets one build it (under a temporary name,
 * renamed when complete, so no process ever copies a half-migrated template) while the others wait, then see it.
 * Templates of other migration sets are dropped when a new one is built (unless in use; they are only a cache).
 */
let templateName: Promise<string> | undefined;
function migratedTemplate(admin: postgres.Sql, adminUrl: string): Promise<string> {
  templateName ??= (async () => {
    const name = `lr_template_${migrationsHash()}`;
    const exists = async (db: postgres.Sql) => (await db`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
    if (await exists(admin)) return name;
    const session = await admin.reserve();
    try {
      // One key for every test run on this server: building a template takes seconds, and is rare.
      await session`SELECT pg_advisory_lock(hashtext('litreview test template'))`;
      if (await exists(session)) return name;
      const building = `${name}_building`;
      await session.unsafe(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await session.unsafe(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await session.unsafe(`ALTER DATABASE ${building} RENAME TO ${name}`);
      const stale = await session<{ datname: string }[]>`
        SELECT datname FROM pg_database WHERE datname LIKE 'lr\\_template\\_%' AND datname <> ${name}`;
      for (const { datname } of stale) await session.unsafe(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
      return name;
    } finally {
      await session`SELECT pg_advisory_unlock(hashtext('litreview test template'))`.catch(() => {});
      session.release();
    }
  })();
  templateName.catch(() => (templateName = undefined));
  return templateName;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database named lr_test_<random>
 * on the server of TEST_DATABASE_URL (dropped by `close`).
 *
 * By default the database is a copy of one migrated once (PGlite: the data folder of a migrated database, once per
 * process; PostgreSQL: `CREATE DATABASE … TEMPLATE lr_template_<migrations hash>`), which is what the migrations
 * would produce, in a fraction of the time. `opts.fromScratch` runs every migration on an empty database instead,
 * for the suites that test the migrations themselves (tests/integration/db-types.test.ts).
 */
export async function createTestDatabase(
  backend: Backend,
  opts: { fromScratch?: boolean } = {},
): Promise<DatabaseHandle & { url?: string }> {
  if (backend === "pglite") {
    if (opts.fromScratch) {
      const handle = openPglite();
      await migrateToLatest(handle.db);
      return { db: handle.db, kind: handle.kind, embedded: handle.embedded, close: handle.close };
    }
    const { db, kind, embedded, close } = openPglite(await migratedPgliteSnapshot());
    return { db, kind, embedded, close };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `lr_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  if (opts.fromScratch) await admin.unsafe(`CREATE DATABASE ${name}`);
  else await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(admin, adminUrl)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 5 });
  if (opts.fromScratch) await migrateToLatest(handle.db);
  return {
    ...handle,
    /** The new database's address, for a second process (a CLI) to open it too. */
    url: url.toString(),
    async close() {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
