import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, jsonContent } from "../http/openapi.ts";
import { readSubscription } from "./service.ts";
import { SubscriptionReadSchema } from "./schemas.ts";

/** /api/v1/subscriptions: the signed-in user's subscription (trial expiry is applied on read). */
export function subscriptionsRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();

  const me = apiRoute({
    method: "get",
    path: "/me",
    tags: ["subscriptions"],
    summary: "Read the signed-in user's subscription",
    description: "A trial whose end has passed reads as trial_expired.",
    security: SIGNED_IN,
    middleware: [requireUser(deps)],
    responses: { 200: jsonContent(SubscriptionReadSchema, "The subscription, or `exists: false`") },
  });
  app.openapi(me, async (c) => c.json(await readSubscription(deps.db, c.get("user").id), 200));

  return app;
}
