import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as pages from "./pages.css.ts";
import { vars } from "../../islands/styles/theme.css.ts";
import { DIST_DIR, loadManifest } from "./manifest.ts";

// The server imports `.css.ts` files through the modules `npm run build` compiled (docs/decisions/0002): these
// tests check that those class names are the ones the stylesheet styles, and that a missing build is reported.

const ROOT = resolve(import.meta.dir, "..", "..");
const stylesheet = () =>
  readFileSync(join(DIST_DIR, loadManifest().css[0]?.replace("/assets/", "assets/") ?? ""), "utf8");

test("class names the server renders are styled by the stylesheet every page links", () => {
  const css = stylesheet();
  for (const name of [pages.card, pages.topBar, pages.notFoundCode, pages.button.primary.split(" ")[0] ?? ""]) {
    expect(name).toMatch(/^[\w-]+/);
    expect(css).toContain(`.${name.split(" ")[0]}`);
  }
});

test("the theme contract is defined for light and dark, and Inter is served locally", () => {
  const css = stylesheet();
  const colorVar = /^var\((--[\w-]+)\)$/.exec(vars.color.bg)?.[1];
  expect(colorVar).toBeTruthy();
  expect(css).toContain(`${colorVar}:`);
  expect(css).toContain("[data-theme=dark]");
  expect(css).toMatch(/@font-face\{font-family:Inter;[^}]*src:url\("?\.\/inter-latin-wght-normal-[\w-]+\.woff2"?\)/);
  expect(css).not.toMatch(/fonts\.(googleapis|gstatic)|https?:\/\//);
});

const fixtureDir = join(ROOT, "dist", `preload-test-${process.pid}`);
afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

test("importing a style file that was never built fails with the instruction to build", async () => {
  mkdirSync(fixtureDir, { recursive: true });
  const file = join(fixtureDir, "never-built.css.ts");
  writeFileSync(file, 'export const x = "y";\n');
  const proc = Bun.spawn([process.execPath, "-e", `await import(${JSON.stringify(file)})`], {
    cwd: ROOT,
    stderr: "pipe",
    stdout: "pipe",
  });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).not.toBe(0);
  expect(stderr).toContain("run npm run build");
  expect(stderr).toContain("never-built.css.ts");
});
