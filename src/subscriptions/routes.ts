import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { readSubscription } from "./service.ts";

/** /api/v1/subscriptions: the signed-in user's subscription (trial expiry is applied on read). */
export function subscriptionsRoutes(deps: AppDeps) {
  const app = new Hono<AuthEnv>();

  app.get("/me", requireUser(deps), async (c) => c.json(await readSubscription(deps.db, c.get("user").id)));

  return app;
}
