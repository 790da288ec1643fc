// Preloaded by bunfig.toml (for `bun run`, `bun <file>` and `bun test`). vanilla-extract cannot evaluate
// `.css.ts` files under Bun, so `npm run build` compiles each one under Node into dist/css/<same path>.css.js
// (class names and vars only); this plugin makes every `.css.ts` import load that module instead.
// See docs/decisions/0002-styles-build.md.
import { plugin } from "bun";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/**
 * Path of the compiled module of a `.css.ts` source (same rule as scripts/build-assets.mjs).
 * @throws Error for a file outside the project, which the build never compiles.
 */
export function compiledStylePath(sourcePath: string): string {
  const rel = relative(ROOT, sourcePath);
  if (rel.startsWith(".."))
    throw new Error(`${sourcePath}: style files outside ${ROOT} are not compiled by npm run build`);
  return join(
    ROOT,
    "dist",
    "css",
    rel
      .split(sep)
      .join("/")
      .replace(/\.css\.ts$/, ".css.js"),
  );
}

plugin({
  name: "vanilla-extract-compiled",
  setup(build) {
    build.onLoad({ filter: /\.css\.ts$/ }, (args) => {
      const compiled = compiledStylePath(args.path);
      const rel = relative(ROOT, args.path);
      if (!existsSync(compiled)) {
        throw new Error(
          `Styles of ${rel} are not compiled (${relative(ROOT, compiled)} is missing): run npm run build`,
        );
      }
      // A stale module would give the server class names that the stylesheet no longer has. Production images ship
      // sources and dist/ from one build, where copying may not keep file times: there the check is left out.
      if (process.env.NODE_ENV !== "production" && statSync(args.path).mtimeMs > statSync(compiled).mtimeMs) {
        throw new Error(
          `Styles of ${rel} changed since the last build (${relative(ROOT, compiled)} is older): run npm run build`,
        );
      }
      return { contents: readFileSync(compiled, "utf8"), loader: "js" };
    });
  },
});
