import { sql, type Insertable, type Selectable, type Updateable } from "kysely";
import type { Database } from "../db/database.ts";
import type { UsersTable } from "../db/types.ts";

// All SQL about users. Functions speak rows and take a Database, which may also be an open transaction.

export type UserRow = Selectable<UsersTable>;

/** True for PostgreSQL's unique_violation (23505), as raised by both postgres.js and PGlite. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** The user with this address, compared case-insensitively (the unique index is on lower(email)). */
export function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where(sql<string>`lower(email)`, "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

/** The user with this id, or undefined. */
export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Inserts a user and returns the row. @throws a unique violation when the address is taken. */
export function insertUser(db: Database, values: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Updates a user (and its updated_at) and returns the new row, or undefined when it does not exist.
 * With `bumpTokenVersion`, every access token issued before this change stops being accepted.
 */
export function updateUser(
  db: Database,
  id: string,
  patch: Updateable<UsersTable>,
  opts: { bumpTokenVersion?: boolean } = {},
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({
      ...patch,
      updated_at: sql`now()`,
      ...(opts.bumpTokenVersion ? { token_version: sql<number>`token_version + 1` } : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes a user; the foreign keys cascade to everything they own. @returns whether a row was deleted. */
export async function deleteUser(db: Database, id: string): Promise<boolean> {
  const res = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A page of users, oldest first (a stable order for skip/limit paging), and the total number of users. */
export async function listUsers(
  db: Database,
  skip: number,
  limit: number,
): Promise<{ rows: UserRow[]; count: number }> {
  const [rows, total] = await Promise.all([
    db.selectFrom("users").selectAll().orderBy("created_at").orderBy("id").offset(skip).limit(limit).execute(),
    db.selectFrom("users").select(sql<number>`count(*)::int`.as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/** Escapes LIKE wildcards so that user input is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * Share recipients: active, non-superuser accounts other than `excludeId` whose address, full name, or a word of
 * the full name starts with `q` (case-insensitive). Exact address first, then names before addresses that start
 * with q, then alphabetical by name and address.
 */
export function searchUsers(
  db: Database,
  q: string,
  excludeId: string,
  skip: number,
  limit: number,
): Promise<{ id: string; full_name: string | null; email: string }[]> {
  const needle = likeLiteral(q.toLowerCase());
  const prefix = `${needle}%`;
  const wordPrefix = `% ${needle}%`;
  return db
    .selectFrom("users")
    .select(["id", "full_name", "email"])
    .where("is_active", "=", true)
    .where("is_superuser", "=", false)
    .where("id", "!=", excludeId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(email)`, "like", prefix),
        eb(sql`lower(full_name)`, "like", prefix),
        eb(sql`lower(full_name)`, "like", wordPrefix),
      ]),
    )
    .orderBy(
      sql`case when lower(email) = ${q.toLowerCase()} then 0 when lower(full_name) like ${prefix} then 1 else 2 end`,
    )
    .orderBy(sql`lower(coalesce(full_name, ''))`)
    .orderBy(sql`lower(email)`)
    .offset(skip)
    .limit(limit)
    .execute();
}

/**
 * Locks the rows of every active superuser (in a stable order, so that two concurrent callers cannot deadlock) and
 * returns their ids. Call inside a transaction that then changes one of them.
 */
export async function lockActiveSuperusers(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom("users")
    .select("id")
    .where("is_superuser", "=", true)
    .where("is_active", "=", true)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}
