import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ImportEdge, importsOf, sourceFiles } from "../support/import-scan.ts";

// What islands/ (browser code, bundled by scripts/build-assets.mjs) may import from src/ (server code).
//
// Why a rule: an island that imports a server module pulls it, and everything it imports, into the browser bundle.
// At best that costs bytes of the first paint's budget (scripts/bench/bench-pages.ts); at worst the bundle holds the
// database driver, `node:` modules that do not exist in a browser, or code that reads secrets from the environment.
// The islands share a few pure modules with the server on purpose, so that the browser and the API apply the same
// rule or read the same words (a field's limits, a design's label, a citation's grammar): those are listed below,
// each with why it is shared, and the list is the only way in.
//
// The rule, checked on the source text with the scanner of tests/support/import-scan.ts:
//   1. Every import of src/ by an island (type-only or not) names a module of ISLAND_SHARED_MODULES.
//   2. What those modules import at run time (not type-only: a type import is erased when compiled and adds nothing
//      to the bundle) is again on the list, so the list names every module of src/ the browser can load; and none of
//      them imports a `node:` or Bun module, the database, the server framework or zod (the API's validation,
//      server-side only: the islands validate with src/rules/).
//   3. Every module on the list is still loaded or imported by an island: a stale entry is removed, not kept as a
//      licence for later.
// Test files under islands/ are exempt: they run under the test runner, never in the bundle.

const ROOT = resolve(import.meta.dir, "../..");

/**
 * The modules of src/ an island may import, with why each is shared. Add a module only if it is pure: no database,
 * no server, no `node:` imports, no environment, no zod, in it or in what it imports at run time (rule 2 checks this).
 */
const ISLAND_SHARED_MODULES: Record<string, string> = {
  // Field rules shared by the forms and the API (docs/decisions/0038, rule 3 of architecture.test.ts): the same
  // limits and messages on both sides.
  "src/rules/account.ts": "sign-up, log-in and settings fields: the limits and messages the API also applies",
  "src/rules/interests.ts": "the settings' research interests: the limits the API also applies",
  "src/rules/review-topic.ts": "the review topic and search strategy limits the API also applies",
  "src/rules/user-search.ts": "the user search of sharing: the query rule the API also applies",
  // The evidence table's words and numbers: the same on the page, in the article cards and in the CSV export.
  "src/articles/evidence.ts": "study designs, their labels and abbreviations, as the cards and the table name them",
  "src/reviews/evidence/phrases.ts": "how a cell says an effect, participants or appraisal, as the CSV export says it",
  "src/reviews/evidence/tokens.ts": "finds a cell's numbers in its verbatim span as the extractor read them",
  "src/reviews/evidence/numbers.ts": 'loaded by tokens.ts: numbers as the abstracts write them ("1,532", "0·36")',
  "src/reviews/number-words.ts": 'loaded by numbers.ts: number words ("twelve")',
  "src/reviews/evidence/types.ts": "types only: the evidence table's row, re-exported type-only from its zod schemas",
  // The summary's citation markers are parsed by the same grammar the pipeline writes them with.
  "src/reviews/citation-grammar.ts": "the summary's citation markers ([1], [2-4]), parsed as the pipeline writes them",
};

/** Imports that must not reach the browser bundle: a bare specifier that is one of these, or starts with one + "/". */
const FORBIDDEN_PACKAGES = [
  "bun",
  "kysely",
  "postgres",
  "pg",
  "@electric-sql/pglite",
  "@elastic/elasticsearch",
  "hono",
  "@hono",
  "zod",
  "croner",
  "jose",
  "stripe",
  "nodemailer",
];

/** Why `target`, imported at run time by a shared module, cannot be in the browser bundle; null when it can. */
function forbiddenReason(target: string): string | null {
  if (target.startsWith("node:") || target.startsWith("bun:")) return "a Node or Bun built-in";
  if (target.startsWith("src/") || target.startsWith("search/") || target.startsWith("islands/")) return null;
  if (target.startsWith(".") || target.startsWith("/")) return null;
  const hit = FORBIDDEN_PACKAGES.find((p) => target === p || target.startsWith(`${p}/`));
  return hit ? `a server-side package (${hit})` : null;
}

/** The import edges of a set of files, by repository-relative path. */
type ImportGraph = Map<string, ImportEdge[]>;

/**
 * The breaches of the islands' import rule in `graph` (islands' files and src/ modules), as readable lines; empty
 * when the rule holds. `allowed` is the list of shared modules (ISLAND_SHARED_MODULES).
 */
function islandImportViolations(graph: ImportGraph, allowed: Record<string, string>): string[] {
  const out: string[] = [];
  const isAllowed = (m: string) => Object.hasOwn(allowed, m);
  const islands = [...graph.keys()].filter((f) => f.startsWith("islands/") && !/\.test\.tsx?$/.test(f));
  const used = new Set<string>();
  // Rule 1: direct imports.
  for (const file of islands)
    for (const e of graph.get(file) ?? []) {
      if (!e.target.startsWith("src/")) continue;
      used.add(e.target);
      if (!isAllowed(e.target)) out.push(`${file} imports ${e.target}, which is not a shared module`);
    }
  // Rule 2: what the shared modules load at run time, followed from each module used.
  const stack = [...used].filter(isAllowed);
  const visited = new Set<string>();
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (visited.has(file)) continue;
    visited.add(file);
    const edges = graph.get(file);
    if (!edges) {
      out.push(`${file} is on the list but was not found`);
      continue;
    }
    for (const e of edges) {
      if (e.typeOnly) continue;
      const reason = forbiddenReason(e.target);
      if (reason) out.push(`${file} imports ${e.target}: ${reason}`);
      else if (e.target.startsWith("src/") || e.target.startsWith("search/")) {
        if (!isAllowed(e.target)) out.push(`${file} loads ${e.target}, which is not a shared module`);
        used.add(e.target);
        stack.push(e.target);
      }
    }
  }
  // Rule 3: no stale entry.
  for (const m of Object.keys(allowed))
    if (!used.has(m)) out.push(`${m} is on the list but no island imports or loads it: remove it`);
  return out.sort();
}

const graph: ImportGraph = new Map(
  ["islands", "src", "search"]
    .flatMap((dir) => sourceFiles(ROOT, dir))
    .map((file) => [file, importsOf(ROOT, file, readFileSync(join(ROOT, file), "utf8"))]),
);

describe("what islands/ may import from src/", () => {
  test("only the listed pure modules, and they load nothing of the server", () => {
    expect(islandImportViolations(graph, ISLAND_SHARED_MODULES)).toEqual([]);
    // The scan saw the islands' imports of src/ (a scanner that found nothing would pass the rule).
    const islandToSrc = [...graph].filter(
      ([f, es]) => f.startsWith("islands/") && es.some((e) => e.target.startsWith("src/")),
    );
    expect(islandToSrc.length).toBeGreaterThan(5);
  });

  test("the check reports an unlisted module, a server import down the line and a stale entry", () => {
    const edge = (target: string, typeOnly = false): ImportEdge => ({ target, typeOnly });
    const fake: ImportGraph = new Map([
      ["islands/a/A.tsx", [edge("src/pure.ts"), edge("src/db/database.ts", true), edge("react")]],
      ["islands/a/A.test.tsx", [edge("src/server.ts")]],
      ["src/pure.ts", [edge("src/helper.ts"), edge("src/types-only.ts", true)]],
      ["src/helper.ts", [edge("node:fs"), edge("kysely"), edge("@hono/zod-openapi"), edge("src/pure.ts")]],
      ["src/db/database.ts", []],
      ["src/server.ts", []],
    ]);
    expect(islandImportViolations(fake, { "src/pure.ts": "", "src/helper.ts": "", "src/old.ts": "" })).toEqual([
      "islands/a/A.tsx imports src/db/database.ts, which is not a shared module",
      "src/helper.ts imports @hono/zod-openapi: a server-side package (@hono)",
      "src/helper.ts imports kysely: a server-side package (kysely)",
      "src/helper.ts imports node:fs: a Node or Bun built-in",
      "src/old.ts is on the list but no island imports or loads it: remove it",
    ]);
    expect(islandImportViolations(fake, { "src/pure.ts": "" })).toContain(
      "src/pure.ts loads src/helper.ts, which is not a shared module",
    );
  });
});
