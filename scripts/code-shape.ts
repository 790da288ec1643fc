import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { importsOf, sourceFiles } from "../tests/support/import-scan.ts";
import { importCircles, LAYERS, layerOf, pointsUp } from "../tests/support/layers.ts";

// Three numbers that describe the shape of the code (src/, islands/, search/; test files left out), for comparing a
// refactoring's before and after:
//   1. imports that point back up: from a lower layer to a higher one (tests/support/layers.ts defines the layers);
//   2. import circles: groups of files that import each other (strongly connected components of more than one file);
//   3. functions over 80 lines, as the linter's noExcessiveLinesPerFunction rule counts them (biome.json).
// Usage: bun scripts/code-shape.ts [--list]   (--list prints every import counted in 1, not only the totals)

const ROOT = resolve(import.meta.dir, "..");
const DIRS = ["src", "islands", "search"];

// The limit of biome.json's noExcessiveLinesPerFunction. Diagnostics at or under it are dropped, so that the count
// stays comparable on an older commit whose configuration left the rule at its default (a lower limit).
const MAX_LINES = 80;

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

interface Edge {
  file: string;
  target: string;
  typeOnly: boolean;
}

/** The imports between the scanned files (packages and files outside them are left out). */
function scanEdges(files: string[]): Edge[] {
  const known = new Set(files);
  return files.flatMap((file) =>
    importsOf(ROOT, file, readFileSync(join(ROOT, file), "utf8"))
      .filter((e) => known.has(e.target))
      .map((e) => ({ file, ...e })),
  );
}

/** Imports from a lower layer to a higher one. */
function upwardImports(edges: Edge[]): Edge[] {
  return edges.filter((e) => pointsUp(e.file, e.target));
}

/**
 * The linter's "function too long" diagnostics (over MAX_LINES) for the non-test files of `dirs`, as
 * "file:line (n lines)".
 */
function longFunctions(dirs: string[]): string[] {
  const biome = join(ROOT, "node_modules/.bin/biome");
  const args = ["lint", "--only=complexity/noExcessiveLinesPerFunction", "--max-diagnostics=none", "--reporter=github"];
  const run = spawnSync(biome, [...args, ...dirs], { cwd: ROOT, encoding: "utf8" });
  if (run.error) throw run.error;
  const found: string[] = [];
  for (const line of run.stdout.split("\n")) {
    const m = /noExcessiveLinesPerFunction,file=([^,]+),line=(\d+),.*too many lines \((\d+)\)/.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith(ROOT) ? m[1]!.slice(ROOT.length + 1) : m[1]!;
    if (!isTest(file) && Number(m[3]) > MAX_LINES) found.push(`${file}:${m[2]} (${m[3]} lines)`);
  }
  return found.sort();
}

if (import.meta.main) {
  const files = DIRS.flatMap((dir) => sourceFiles(ROOT, dir)).filter((file) => !isTest(file));
  const edges = scanEdges(files);
  const up = upwardImports(edges);
  const circles = importCircles(files, edges);
  const long = longFunctions(DIRS);
  const listAll = process.argv.includes("--list");
  const typeOnly = up.filter((e) => e.typeOnly).length;

  console.log(`files scanned: ${files.length} (${DIRS.join("/, ")}/, test files excluded), imports: ${edges.length}`);
  console.log(`layers, lowest first: ${LAYERS.join(" < ")}`);
  console.log(
    `\n(a) imports that point back up: ${up.length} (${up.length - typeOnly} runtime, ${typeOnly} type-only)`,
  );
  const byFile = new Map<string, Edge[]>();
  for (const e of up) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, list] of [...byFile].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    console.log(`  ${list.length}  ${file} (${layerOf(file)})`);
    if (listAll)
      for (const e of list) console.log(`       → ${e.target} (${layerOf(e.target)})${e.typeOnly ? " type-only" : ""}`);
  }
  console.log(`\n(b) import circles (files importing each other, type-only imports included): ${circles.length}`);
  for (const c of circles) console.log(`  ${c.join(" ↔ ")}`);
  console.log(`\n(c) functions over 80 lines: ${long.length}`);
  for (const f of long) console.log(`  ${f}`);
}
