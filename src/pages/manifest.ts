import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { IslandName } from "../../islands/registry.ts";

/** What `npm run build` wrote to dist/manifest.json: URLs (under /assets/) of the files a page may need. */
export interface AssetManifest {
  /** The browser entry (islands/client.tsx). */
  entry: string;
  /** Chunks the entry imports statically. */
  entryImports: string[];
  /** Per island: its chunk first, then the chunks it imports that the entry does not already load. */
  islands: Partial<Record<IslandName, string[]>>;
  /** Stylesheets, linked by every page. */
  css: string[];
  /** The Latin Inter font file, preloaded so text does not reflow when it arrives. */
  fontPreload: string | null;
}

/** Folder of the built assets and compiled styles. */
export const DIST_DIR = resolve(import.meta.dir, "..", "..", "dist");
const MANIFEST_FILE = join(DIST_DIR, "manifest.json");

let cached: { mtimeMs: number; manifest: AssetManifest } | null = null;

/**
 * The current manifest. Re-read when the file changes, so a running development server follows a rebuild.
 * @throws Error asking to run the build when there is none.
 */
export function loadManifest(): AssetManifest {
  if (!existsSync(MANIFEST_FILE)) throw new Error("dist/manifest.json is missing: run npm run build");
  const mtimeMs = statSync(MANIFEST_FILE).mtimeMs;
  if (cached?.mtimeMs !== mtimeMs) {
    cached = { mtimeMs, manifest: JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as AssetManifest };
  }
  return cached.manifest;
}

/** The scripts a page with these islands loads: entry first, then shared and per-island chunks, without repeats. */
export function scriptsFor(manifest: AssetManifest, islands: Iterable<IslandName>): string[] {
  const urls = new Set<string>();
  const names = [...islands];
  if (names.length === 0) return [];
  urls.add(manifest.entry);
  for (const u of manifest.entryImports) urls.add(u);
  for (const name of names) {
    const files = manifest.islands[name];
    if (!files) throw new Error(`Island ${name} is not in dist/manifest.json: run npm run build`);
    for (const u of files) urls.add(u);
  }
  return [...urls];
}
