import { Hono, type Context } from "hono";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * /api/docs: the interactive reference of the API (Swagger UI, as FastAPI serves at /docs), reading
 * /api/v1/openapi.json. Swagger UI's files are served from the swagger-ui-dist package, never from a CDN, and the
 * page has no inline script (its start-up code is /api/docs/init.js), so it runs under the pages' strict
 * Content-Security-Policy (script-src 'self').
 */

const DIST = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The package files the page loads, with their content types. */
const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LitReview API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<main><div id="swagger-ui"></div></main>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "BaseLayout",
  // Calls made from the page carry the browser's credentials like the app's own client.
  withCredentials: true,
  persistAuthorization: false,
});
`;

/** Whether a request path belongs to the reference page (which gets the pages' CSP, not the API's). */
export function isApiDocsPath(path: string): boolean {
  return path === "/api/docs" || path.startsWith("/api/docs/");
}

/** Routes of /api/docs and its files. */
export function apiDocsRoutes() {
  const app = new Hono();
  const cache = { "cache-control": "public, max-age=3600" };
  app.get("/", (c) => c.html(PAGE, 200, { "cache-control": "no-cache" }));
  app.get("/init.js", (c) => c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8", ...cache }));
  app.get("/:file", (c: Context) => {
    const name = c.req.param("file") ?? "";
    const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!type) return c.json({ detail: "Not Found" }, 404);
    return new Response(Bun.file(join(DIST, name)), { headers: { "content-type": type, ...cache } });
  });
  return app;
}
