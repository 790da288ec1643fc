import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { LAYER_BACKENDS, createTestDatabase } from "../support/database.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";

// The database layer under the app: on PostgreSQL, single queries share the pool and transactions hold one
// connection (src/db/postgres-driver.ts); PGlite must behave the same.

for (const backend of LAYER_BACKENDS) {
  describe(`database (${backend})`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await createTestDatabase(backend);
    });
    afterAll(async () => {
      await handle?.close();
    });

    async function insertUser(email: string) {
      return handle.db
        .insertInto("users")
        .values({ email, full_name: null, hashed_password: "x" })
        .returning("id")
        .executeTakeFirstOrThrow();
    }

    test("many concurrent queries each get their own answer", async () => {
      const rows = await Promise.all(
        Array.from({ length: 64 }, (_, i) => sql<{ n: number }>`select ${i}::int + 1 as n`.execute(handle.db)),
      );
      expect(rows.map((r) => r.rows[0]?.n)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    });

    test("statements of one transaction run in one session and commit together", async () => {
      const result = await handle.db.transaction().execute(async (trx) => {
        const a = await sql<{ id: string }>`select txid_current()::text as id`.execute(trx);
        await trx
          .insertInto("users")
          .values({ email: "tx-a@example.com", full_name: null, hashed_password: "x" })
          .execute();
        await trx
          .insertInto("users")
          .values({ email: "tx-b@example.com", full_name: null, hashed_password: "x" })
          .execute();
        const b = await sql<{ id: string }>`select txid_current()::text as id`.execute(trx);
        return [a.rows[0]?.id, b.rows[0]?.id];
      });
      expect(result[0]).toBe(result[1]);
      const emails = await handle.db
        .selectFrom("users")
        .select("email")
        .where("email", "in", ["tx-a@example.com", "tx-b@example.com"])
        .orderBy("email")
        .execute();
      expect(emails.map((r) => r.email)).toEqual(["tx-a@example.com", "tx-b@example.com"]);
    });

    test("a failing transaction leaves nothing behind, and the pool keeps working", async () => {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await trx
            .insertInto("users")
            .values({ email: "rolled-back@example.com", full_name: null, hashed_password: "x" })
            .execute();
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(
        await handle.db
          .selectFrom("users")
          .select("id")
          .where("email", "=", "rolled-back@example.com")
          .executeTakeFirst(),
      ).toBeUndefined();
      // A unique violation inside a transaction: the error surfaces and the next transactions still work.
      await insertUser("taken@example.com");
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await trx
            .insertInto("users")
            .values({ email: "taken@example.com", full_name: null, hashed_password: "x" })
            .execute();
        }),
      ).rejects.toMatchObject({ code: "23505" });
      const ok = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          handle.db.transaction().execute((trx) => sql<{ n: number }>`select ${i}::int as n`.execute(trx)),
        ),
      );
      expect(ok.map((r) => r.rows[0]?.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    test("a transaction aborted by a failed statement that was caught commits nothing", async () => {
      const outcome = await handle.db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto("users")
            .values({ email: "aborted@example.com", full_name: null, hashed_password: "x" })
            .execute();
          await sql`select 1 / 0`.execute(trx).catch(() => undefined);
        })
        .then(
          () => "committed",
          () => "refused",
        );
      expect(
        await handle.db.selectFrom("users").select("id").where("email", "=", "aborted@example.com").executeTakeFirst(),
      ).toBeUndefined();
      // On PostgreSQL the driver reports the COMMIT that the server turned into a ROLLBACK.
      if (backend === "postgres") expect(outcome).toBe("refused");
      const after = await handle.db.transaction().execute((trx) => sql<{ n: number }>`select 7 as n`.execute(trx));
      expect(after.rows[0]?.n).toBe(7);
    });

    test("a transaction's uncommitted rows are invisible to queries outside it", async () => {
      let seenOutside: unknown = "not checked";
      await handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("users")
          .values({ email: "isolated@example.com", full_name: null, hashed_password: "x" })
          .execute();
        if (backend === "postgres") {
          seenOutside = await handle.db
            .selectFrom("users")
            .select("id")
            .where("email", "=", "isolated@example.com")
            .executeTakeFirst();
        } else {
          // PGlite has one connection: a query outside the transaction would wait for it to end.
          seenOutside = undefined;
        }
      });
      expect(seenOutside).toBeUndefined();
      expect(
        await handle.db.selectFrom("users").select("id").where("email", "=", "isolated@example.com").executeTakeFirst(),
      ).toBeDefined();
    });

    test("the same parameterised query runs many times with different values", async () => {
      const ids = await Promise.all(["p1@example.com", "p2@example.com", "p3@example.com"].map(insertUser));
      for (const { id } of ids) {
        const row = await handle.db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
        expect(row?.id).toBe(id);
      }
      const updated = await handle.db
        .updateTable("users")
        .set({ full_name: "Same" })
        .where("email", "like", "p_@example.com")
        .executeTakeFirst();
      expect(Number(updated.numUpdatedRows)).toBe(3);
    });

    test("a long abstract is stored with LZ4 where the server has it (pglz on PGlite), unchanged", async () => {
      // Migration 2026_11_21_0003 (docs/decisions/0010-bulk-ingest.md) chose LZ4 for the large article and index
      // columns. Sentences that repeat compress well, so the row passes TOAST's threshold compressed, not out of line.
      const abstract = Array.from({ length: 80 }, (_, i) => `Sentence ${i % 7} about hip fracture outcomes.`).join(" ");
      await sql`INSERT INTO articles (pmid, title, abstract, content_hash)
        VALUES (990001, 'Compression', ${abstract}, 'x')`.execute(handle.db);
      const { rows } = await sql<{ method: string | null; abstract: string; offered: boolean }>`
        SELECT pg_column_compression(abstract) AS method, abstract,
               'lz4' = ANY(enumvals) AS offered FROM articles, pg_settings
        WHERE pmid = 990001 AND name = 'default_toast_compression'`.execute(handle.db);
      expect(rows[0]?.abstract).toBe(abstract);
      // PGlite is built without LZ4; Debian's PostgreSQL (the test server) with it.
      if (backend === "pglite") expect(rows[0]?.offered).toBe(false);
      expect(rows[0]?.method).toBe(rows[0]?.offered ? "lz4" : "pglz");
    });
  });
}
