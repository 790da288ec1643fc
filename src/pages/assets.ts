import type { Context } from "hono";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DIST_DIR } from "./manifest.ts";

const ASSETS_DIR = join(DIST_DIR, "assets");

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  woff2: "font/woff2",
  woff: "font/woff",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
};

// Built file names only: no folders, no dot-files, so a request can never leave dist/assets.
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.([a-z0-9]+)$/;

/**
 * GET /assets/:file — the content-hashed files of `npm run build`. Cached for a year (a new build gives new names);
 * JavaScript and CSS are sent pre-compressed (the build's `.gz` copy) to clients that accept gzip.
 */
export function serveAsset(c: Context): Response {
  const name = c.req.param("file") ?? "";
  const m = SAFE_NAME.exec(name);
  const type = m ? CONTENT_TYPES[m[1] ?? ""] : undefined;
  const file = join(ASSETS_DIR, name);
  if (!m || !type || !existsSync(file)) return c.text("Not Found", 404);
  const headers: Record<string, string> = {
    "content-type": type,
    "cache-control": "public, max-age=31536000, immutable",
    vary: "accept-encoding",
  };
  const gz = `${file}.gz`;
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "") && existsSync(gz)) {
    headers["content-encoding"] = "gzip";
    return new Response(Bun.file(gz), { headers });
  }
  return new Response(Bun.file(file), { headers });
}
