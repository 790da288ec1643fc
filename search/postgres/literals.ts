import { sql, type RawBuilder } from "kysely";

/*
 * The search statement is written with literals, not parameters. Its text differs from query to query
 * (terms, weights, branches), and the PostgreSQL driver prepares every statement that has parameters:
 * each search would leave one more prepared statement on its connection. Without parameters it is sent
 * unprepared. The fixed statements (query analysis, index, delete) keep their parameters.
 */

/** A finite number as SQL literal text. */
export function num(x: number): RawBuilder<unknown> {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return sql.raw(String(x));
}

/** A string as an SQL literal (quotes doubled; standard_conforming_strings keeps backslashes literal). */
export function text(value: string): RawBuilder<unknown> {
  if (value.includes("\0")) throw new Error("a NUL character cannot be sent to PostgreSQL");
  return sql.lit(value);
}
