import { Hono } from "hono";
import { onError, apiNotFound } from "./http/errors.ts";
import type { AppDeps } from "./deps.ts";
import { loginRoutes } from "./auth/routes.ts";
import { passwordRecoveryRoutes } from "./auth/recovery-routes.ts";
import { usersRoutes } from "./users/routes.ts";
import { subscriptionsRoutes } from "./subscriptions/routes.ts";
import { reviewsRoutes } from "./reviews/routes.ts";
import { pagesRoutes } from "./pages/routes.tsx";
import { sameOriginMutations, securityHeaders } from "./http/security.ts";

/**
 * Builds the whole HTTP application: the JSON API under /api/v1 and the server-rendered pages, every response with
 * the security headers of src/http/security.ts, and API writes refused when they come from another site.
 * Pure: no listening, no jobs; server.ts and the tests call it with their own deps.
 */
export function createApp(deps: AppDeps) {
  const api = new Hono();
  api.use("*", sameOriginMutations(deps.config));
  api.route("/login", loginRoutes(deps));
  api.route("/", passwordRecoveryRoutes(deps));
  api.route("/users", usersRoutes(deps));
  api.route("/subscriptions", subscriptionsRoutes(deps));
  api.route("/literature_review", reviewsRoutes(deps));
  api.notFound(apiNotFound);
  api.onError(onError);

  const app = new Hono();
  app.use("*", securityHeaders(deps.config));
  app.route("/api/v1", api);
  app.route("/", pagesRoutes(deps));
  app.onError(onError);
  return app;
}
