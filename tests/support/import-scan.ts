import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// A small import scanner for the layer rules of tests/integration/architecture.test.ts (docs/decisions/0038): regular
// expressions over the source text, enough for this repository's style (one import per statement, at the start of a
// line), without a TypeScript parser or a new dependency.

/** One import or re-export of a file: the repository-relative target (or the bare package name) and whether it is
 *  erased at compile time (`import type`, or braces holding only `type X` specifiers). */
export interface ImportEdge {
  target: string;
  typeOnly: boolean;
}

// A static `import … from "x"` / `export … from "x"` at the start of a line; the clause holds only names, commas,
// `*`, `as` and one brace block, so `export const a = …` never matches.
const STATIC = new RegExp(
  String.raw`^[ \t]*(import|export)[ \t]+(type[ \t]+)?((?:[\w$*, \t\n]|\{[^}]*\})*?)` +
    String.raw`[ \t\n]*from[ \t\n]*["']([^"']+)["']`,
  "gm",
);
const SIDE_EFFECT = /^[ \t]*import[ \t]*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The imports of one file's source text (comments removed first, so that examples in them do not count).
 * `file` is relative to `root`; relative specifiers are resolved against it to `root`-relative paths ("/"
 * separated), bare ones (packages) are kept as written.
 */
export function importsOf(root: string, file: string, source: string): ImportEdge[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^[ \t]*\/\/.*$/gm, "");
  const resolveSpec = (spec: string) =>
    spec.startsWith(".")
      ? relative(root, resolve(root, dirname(file), spec))
          .split("\\")
          .join("/")
      : spec;
  const edges: ImportEdge[] = [];
  for (const m of code.matchAll(STATIC)) {
    const clause = m[3] ?? "";
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = clause.replace(/\{[^}]*\}/, "").replace(/[\s,]/g, "");
    const names = (braces?.[1] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const inlineTypes =
      braces !== null && outside === "" && names.length > 0 && names.every((n) => n.startsWith("type "));
    edges.push({ target: resolveSpec(m[4]!), typeOnly: Boolean(m[2]) || inlineTypes });
  }
  for (const m of code.matchAll(SIDE_EFFECT)) edges.push({ target: resolveSpec(m[1]!), typeOnly: false });
  for (const m of code.matchAll(DYNAMIC)) edges.push({ target: resolveSpec(m[1]!), typeOnly: false });
  return edges;
}

/**
 * Every .ts/.tsx file under `dir` (relative to `root`), as repository-relative "/"-separated paths; node_modules
 * folders are skipped. Shared by the import rules' tests and scripts/code-shape.ts, so that they scan the same files.
 */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") out.push(...sourceFiles(root, path));
    } else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}
