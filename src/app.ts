import { Hono } from "hono";
import { onError } from "./http/errors.ts";
import type { AppDeps } from "./deps.ts";
import { loginRoutes } from "./auth/routes.ts";
import { passwordRecoveryRoutes } from "./auth/recovery-routes.ts";
import { usersRoutes } from "./users/routes.ts";
import { subscriptionsRoutes } from "./subscriptions/routes.ts";
import { reviewsRoutes } from "./reviews/routes.ts";
import { likesRoutes } from "./likes/routes.ts";
import { articlesRoutes } from "./articles/routes.ts";
import { sharesRoutes } from "./shares/routes.ts";
import { suggestionsRoutes } from "./suggestions/routes.ts";
import { exportRoutes } from "./export/routes.ts";
import { privacyRoutes } from "./privacy/routes.ts";
import { pagesRoutes } from "./pages/routes.tsx";
import { sameOriginMutations, securityHeaders } from "./http/security.ts";
import { requestLimits } from "./http/limits.ts";
import { createApi, registerSecurity } from "./http/openapi.ts";
import { openApiDocument } from "./http/openapi-document.ts";
import { healthRoutes } from "./health/routes.ts";
import { apiDocsRoutes } from "./http/api-docs.ts";

/** Path of the OpenAPI document, under /api/v1. */
export const OPENAPI_PATH = "/openapi.json";

/**
 * The JSON API under /api/v1: every route declared with its OpenAPI description (src/http/openapi.ts), cross-site
 * writes refused, the generated OpenAPI 3.1 document at /api/v1/openapi.json.
 */
export function createApiApp(deps: AppDeps) {
  const api = createApi();
  registerSecurity(api);
  api.use("*", sameOriginMutations(deps.config));
  api.route("/login", loginRoutes(deps));
  api.route("/", passwordRecoveryRoutes(deps));
  api.route("/users", usersRoutes(deps));
  api.route("/subscriptions", subscriptionsRoutes(deps));
  api.route("/literature_review", reviewsRoutes(deps));
  api.route("/articles", articlesRoutes(deps));
  api.route("/likes", likesRoutes(deps));
  api.route("/shares", sharesRoutes(deps));
  api.route("/suggestions", suggestionsRoutes(deps));
  api.route("/export", exportRoutes(deps));
  api.route("/privacy", privacyRoutes(deps));
  api.route("/", healthRoutes(deps));
  // Generated once, on first request: the routes do not change while the process runs.
  let document: unknown;
  api.get(OPENAPI_PATH, (c) => c.json((document ??= openApiDocument(api))));
  api.onError(onError);
  return api;
}

/**
 * Builds the whole HTTP application: the JSON API under /api/v1, its reference page at /api/docs, and the
 * server-rendered pages; every response with the security headers of src/http/security.ts and every request
 * within the size limits of src/http/limits.ts.
 * Pure: no listening, no jobs; server.ts and the tests call it with their own deps.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono({ strict: false });
  app.use("*", requestLimits());
  app.use("*", securityHeaders(deps.config));
  app.route("/api/v1", createApiApp(deps));
  app.route("/api/docs", apiDocsRoutes());
  app.route("/", pagesRoutes(deps));
  app.onError(onError);
  return app;
}
