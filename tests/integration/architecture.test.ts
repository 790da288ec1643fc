import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { importsOf, sourceFiles } from "../support/import-scan.ts";
import { importCircles, isLayered, layerOf, pointsUp } from "../support/layers.ts";

// The import rules of docs/decisions/0038-layers-and-import-rules.md, checked on the source text of every TypeScript
// file, so that a layer that points the wrong way fails the suite:
//   1. search/ is a library: it imports nothing of src/ but the database types (type-only imports of src/db/).
//   2. src/ does not import islands/ (browser code), except the server-rendered pages (src/pages/) and tests.
//   3. src/rules/ (the field rules shared by the forms and the server) imports nothing but src/rules/ itself.
//   4. Only src/users/ and src/auth/ query the `users` table; the others go through their functions. The files that
//      still do are listed below with their number of queries: the list may only shrink.
//   5. No import circles among the files of src/, islands/ and search/ (files that import each other, directly or
//      through others, can only be understood, tested and changed together).
//   6. No import points back up the layers (tests/support/layers.ts: foundation < domain < assembly): src/jobs/ and
//      the other foundation folders import no domain, and domains import nothing of the assembly (the server, the app,
//      the job registry, the pages). None does, and there is no exception list (docs/decisions/0050).

const ROOT = resolve(import.meta.dir, "../..");

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const all = ["src", "search", "islands", "scripts", "tests"].flatMap((dir) => sourceFiles(ROOT, dir));
const edges = all.flatMap((file) =>
  importsOf(ROOT, file, readFileSync(join(ROOT, file), "utf8")).map((e) => ({ file, ...e })),
);

/**
 * Files outside src/users/ and src/auth/ that still query the `users` table, with how many queries each holds (as of
 * docs/decisions/0038). Route them through src/users/ functions when touching them, then lower or remove the entry.
 * Test files are exempt: they set up accounts as fixtures.
 */
const USERS_TABLE_EXCEPTIONS: Record<string, number> = {
  // Retention, export and archive act on the whole account, often inside their own transaction with row locks.
  "src/privacy/activity.ts": 1,
  "src/privacy/archive.ts": 1,
  "src/privacy/data-export.ts": 5,
  "src/privacy/retention.ts": 6,
  // Locks the user row (FOR UPDATE) so that concurrent review starts of one user count in-progress reviews in turn.
  "src/reviews/repository.ts": 1,
  // Sharing looks a recipient up by address and joins the sharer's name.
  "src/shares/invitations.ts": 1,
  "src/shares/notify.ts": 3,
  "src/shares/repository.ts": 1,
  "src/shares/service.ts": 1,
  // The weekly job's candidate query joins the users it serves.
  "src/suggestions/repository.ts": 1,
};

/** Kysely calls that read or write a table, with "users" (or "users as x") as their table. */
const USERS_QUERY = new RegExp(
  String.raw`\b(?:selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)` +
    String.raw`\(\s*["'\x60]users\b`,
  "g",
);

/** The application's files whose imports form the layers (tests, scripts/ and tests/ are outside them). */
const layered = all.filter((f) => isLayered(f) && !isTest(f));

/**
 * Import circles allowed for now, each as its sorted files joined by " ↔ ", with the reason. None today: the job
 * kinds and the worker were the last (the handler types moved to src/jobs/kinds.ts). Add one only with a reason
 * written here, and remove it with the circle.
 */
const CIRCLE_EXCEPTIONS: Record<string, string> = {};

describe("import rules (docs/decisions/0038)", () => {
  test("the parser sees static, type-only, re-exported, side-effect and dynamic imports", () => {
    const src = [
      'import { a } from "./x.ts";',
      'import type { B } from "../src/db/types.ts";',
      'import { type C, type D } from "./y.ts";',
      'export { e } from "./z.ts";',
      'import "./side.ts";',
      "const m = await import('./lazy.ts');",
      '// import { hidden } from "./comment.ts";',
      '/* import { hidden } from "./block.ts"; */',
    ].join("\n");
    expect(importsOf(ROOT, "search/q.ts", src)).toEqual([
      { target: "search/x.ts", typeOnly: false },
      { target: "src/db/types.ts", typeOnly: true },
      { target: "search/y.ts", typeOnly: true },
      { target: "search/z.ts", typeOnly: false },
      { target: "search/side.ts", typeOnly: false },
      { target: "search/lazy.ts", typeOnly: false },
    ]);
    // The scan found the repository's own imports (a parser that found nothing would pass every rule).
    expect(edges.length).toBeGreaterThan(1000);
  });

  test("search/ imports nothing of src/ but type-only imports of src/db/", () => {
    const bad = edges
      .filter((e) => e.file.startsWith("search/") && e.target.startsWith("src/"))
      .filter((e) => !(e.typeOnly && e.target.startsWith("src/db/")))
      .map((e) => `${e.file} → ${e.target}${e.typeOnly ? " (type)" : ""}`);
    expect(bad).toEqual([]);
  });

  test("src/ does not import islands/, except the pages and tests", () => {
    const bad = edges
      .filter((e) => e.file.startsWith("src/") && !e.file.startsWith("src/pages/") && !isTest(e.file))
      .filter((e) => e.target.startsWith("islands/"))
      .map((e) => `${e.file} → ${e.target}`);
    expect(bad).toEqual([]);
  });

  test("src/rules/ imports nothing but src/rules/ (no React, no DOM, no database)", () => {
    const bad = edges
      .filter((e) => e.file.startsWith("src/rules/") && !e.target.startsWith("src/rules/"))
      .map((e) => `${e.file} → ${e.target}`);
    expect(bad).toEqual([]);
    expect(all.filter((f) => f.startsWith("src/rules/")).length).toBeGreaterThan(0);
  });

  test("only src/users/ and src/auth/ query the users table, but for the listed exceptions", () => {
    const counts: Record<string, number> = {};
    for (const file of all) {
      const own = file.startsWith("src/users/") || file.startsWith("src/auth/");
      if (!file.startsWith("src/") || own || isTest(file)) continue;
      const n = readFileSync(join(ROOT, file), "utf8").match(USERS_QUERY)?.length ?? 0;
      if (n > 0) counts[file] = n;
    }
    // Equal, not at most: a file that no longer queries the table must leave the list, so the list only shrinks.
    expect(counts).toEqual(USERS_TABLE_EXCEPTIONS);
  });

  test("the users-table scan recognises the query forms it counts", () => {
    const sample = [
      'db.selectFrom("users").x; db.updateTable("users"); db.selectFrom("users as u");',
      'db.selectFrom("user_sessions"); trx.leftJoin(`users`, "a", "b")',
    ].join("\n");
    expect(sample.match(USERS_QUERY)?.length).toBe(4);
  });
  test("no import circles in src/, islands/ and search/, but for the listed exceptions", () => {
    const circles = importCircles(
      layered,
      edges.filter((e) => layered.includes(e.file)),
    ).map((c) => c.join(" ↔ "));
    // Equal, not at most: a circle that is gone must leave the list.
    expect(circles.sort()).toEqual(Object.keys(CIRCLE_EXCEPTIONS).sort());
  });

  test("the circle finder finds circles through other files and only those", () => {
    const e = (file: string, target: string) => ({ file, target });
    const files = ["a", "b", "c", "d", "e"];
    const graph = [e("a", "b"), e("b", "c"), e("c", "a"), e("c", "d"), e("d", "e"), e("e", "e")];
    expect(importCircles(files, graph)).toEqual([["a", "b", "c"]]);
  });

  // None is allowed: the last seven (the recovery mail job, the session cookie's helpers, two pages kept in their
  // domains) moved to the layer they belong to. A new one means moving code, not adding an exception.
  test("no import points back up the layers (src/jobs/ imports no domain, the foundation no domain)", () => {
    const up = edges
      .filter((e) => layered.includes(e.file) && pointsUp(e.file, e.target))
      .map((e) => `${e.file} → ${e.target}`);
    expect([...new Set(up)].sort()).toEqual([]);
  });

  test("the layers put the foundation below the domains and the assembly above them", () => {
    expect(layerOf("src/jobs/worker.ts")).toBe("foundation");
    expect(layerOf("search/query.ts")).toBe("foundation");
    expect(layerOf("src/reviews/pipeline.ts")).toBe("domain");
    expect(layerOf("src/search/open-index.ts")).toBe("domain");
    expect(layerOf("src/job-registry.ts")).toBe("assembly");
    expect(layerOf("islands/lib/toast.tsx")).toBe("assembly");
    expect(pointsUp("src/jobs/worker.ts", "src/reviews/pipeline.ts")).toBe(true);
    expect(pointsUp("src/job-registry.ts", "src/reviews/pipeline.ts")).toBe(false);
    expect(pointsUp("src/jobs/worker.ts", "kysely")).toBe(false);
    // A file named like a foundation file but elsewhere is not one ("src/config.ts" is a file, not a folder).
    expect(layerOf("src/config.tsx")).toBe("domain");
  });
});
