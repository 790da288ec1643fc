import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses, jsonBody, jsonContent } from "../http/openapi.ts";
import { weeklyDigestOf } from "../users/preferences.ts";
import * as suggestions from "./service.ts";
import { WeeklySuggestionsSchema } from "./schemas.ts";

const DigestSettingSchema = z
  .object({ weekly_digest: z.boolean({ error: "weekly_digest must be true or false" }) })
  .openapi("DigestSetting");

/** /api/v1/suggestions (docs/product.md §7): the latest weekly suggestions, and the weekly digest e-mail setting. */
export function suggestionsRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = { tags: ["suggestions"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const latest = apiRoute({
    ...common,
    method: "get",
    path: "/weekly/latest",
    summary: "My latest weekly suggestions",
    description:
      "The four sections of the latest week, each with its cited summary. 404 until the first batch is computed; 403 without an active Plus, Pro or Max subscription.",
    responses: { 200: jsonContent(WeeklySuggestionsSchema, "The latest batch"), ...errorResponses(403, 404) },
  });
  app.openapi(latest, async (c) => c.json(await suggestions.latestSuggestions(deps, c.get("user").id), 200));

  const readDigest = apiRoute({
    ...common,
    method: "get",
    path: "/digest",
    summary: "Whether I receive the weekly digest e-mail",
    responses: { 200: jsonContent(DigestSettingSchema, "The setting") },
  });
  app.openapi(readDigest, async (c) => {
    return c.json({ weekly_digest: await weeklyDigestOf(deps.db, c.get("user").id) }, 200);
  });

  const writeDigest = apiRoute({
    ...common,
    method: "put",
    path: "/digest",
    summary: "Turn the weekly digest e-mail on or off",
    request: { body: jsonBody(DigestSettingSchema) },
    responses: { 200: jsonContent(DigestSettingSchema, "The new setting") },
  });
  app.openapi(writeDigest, async (c) => {
    const { weekly_digest } = c.req.valid("json");
    await suggestions.setWeeklyDigest(deps, c.get("user").id, weekly_digest);
    return c.json({ weekly_digest }, 200);
  });

  return app;
}
