// The layers of the application code and the import graph's circles, shared by the architecture test
// (tests/integration/architecture.test.ts) and the code-shape measurement (scripts/code-shape.ts), so that both use
// one definition.

/**
 * The layers, lowest first. A module may import its own layer or a lower one.
 * - foundation: what every domain builds on and that knows no domain: the configuration and the dependencies'
 *   types, the database, HTTP plumbing, the job queue and worker, e-mail sending, the shared field rules, and the
 *   search library (search/, which may use only the database's types, docs/decisions/0038).
 * - domain: one folder of src/ per domain (auth, users, articles, reviews, pubmed, search…).
 * - assembly: where the application is put together: the HTTP app, the server, the job registry, the seed data, the
 *   server-rendered pages, and the browser islands (which import pure domain modules such as the evidence types).
 */
export const LAYERS = ["foundation", "domain", "assembly"] as const;
export type Layer = (typeof LAYERS)[number];

/** The foundation: files, or folders (ending with "/"). */
export const FOUNDATION = [
  "src/config.ts",
  "src/deps.ts",
  "src/rules/",
  "src/db/",
  "src/http/",
  "src/jobs/",
  "src/email/",
  "search/",
];
/** The assembly: files, or folders (ending with "/"). Everything else under src/ is a domain. */
export const ASSEMBLY = ["src/app.ts", "src/server.ts", "src/job-registry.ts", "src/seed.ts", "src/pages/", "islands/"];

/** The layer of a repository-relative file. */
export function layerOf(file: string): Layer {
  const under = (prefixes: string[]) => prefixes.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p));
  if (under(FOUNDATION)) return "foundation";
  if (under(ASSEMBLY)) return "assembly";
  return "domain";
}

/** Whether a repository-relative path belongs to the layered code (src/, islands/, search/), not to a package. */
export function isLayered(path: string): boolean {
  return /^(src|islands|search)\//.test(path);
}

/** Whether importing `target` from `file` points from a lower layer to a higher one (packages are in no layer). */
export function pointsUp(file: string, target: string): boolean {
  if (!isLayered(file) || !isLayered(target)) return false;
  return LAYERS.indexOf(layerOf(target)) > LAYERS.indexOf(layerOf(file));
}

/**
 * The groups of files that import each other, directly or through others: the strongly connected components of more
 * than one file (Tarjan's algorithm) of the graph `edges` over `files`. Each group is sorted, largest group first.
 */
export function importCircles(files: string[], edges: { file: string; target: string }[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (next.has(e.target)) next.get(e.file)?.push(e.target);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return components.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}
