/**
 * `npm run bench -- NAME [args…]` runs scripts/bench/bench-NAME.ts (or NAME.ts) with the arguments, so that every
 * benchmark behind docs/benchmarks.md can be run from a shell without a global Bun. Without NAME, lists them.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dir;
const [name, ...args] = process.argv.slice(2);
const scripts = readdirSync(dir).filter(
  (f) => f.endsWith(".ts") && f !== "run.ts" && f !== "queries.ts" && f !== "mesh-headings.ts",
);
if (!name) {
  console.log(
    `usage: npm run bench -- NAME [args…]\nbenchmarks: ${scripts.map((f) => f.replace(/^bench-/, "").replace(/\.ts$/, "")).join(", ")}`,
  );
  process.exit(0);
}
const file = [join(dir, `bench-${name}.ts`), join(dir, `${name}.ts`)].find(existsSync);
if (!file) {
  console.error(`no benchmark named "${name}"; run npm run bench for the list`);
  process.exit(2);
}
const child = Bun.spawn([process.execPath, file, ...args], { stdio: ["inherit", "inherit", "inherit"] });
process.exit(await child.exited);
