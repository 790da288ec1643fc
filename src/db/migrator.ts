import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Database } from "./database.ts";

const MIGRATIONS_DIR = join(import.meta.dir, "..", "..", "migrations");

/** Loads every `migrations/*.ts` file, keyed by file name (timestamp first, so names sort in time order). */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".ts")).sort();
    const out: Record<string, Migration> = {};
    for (const f of files) out[f.replace(/\.ts$/, "")] = (await import(join(MIGRATIONS_DIR, f))) as Migration;
    return out;
  }
}

/**
 * Applies all pending migrations.
 * @returns names of the migrations applied now (empty when up to date).
 * @throws the migration's error, after logging which migration failed.
 */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (failed) console.error(`migration ${failed.migrationName} failed`);
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
