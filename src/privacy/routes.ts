import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import { readDataExport, requestDataExport } from "./data-export.ts";

const DataExportSchema = z
  .object({
    id: z.uuid(),
    status: z
      .enum(["queued", "ready", "failed"])
      .openapi({ description: "queued: being prepared; ready: the e-mail with the link was sent" }),
    created_at: z.date(),
    expires_at: z.date().openapi({ description: "After this, the file is gone; ask again" }),
    message: z.string(),
  })
  .openapi("DataExport");

const EXPORT_QUEUED = "We are preparing a copy of your data. You will receive an e-mail with a download link.";
const EXPORT_PENDING = "A copy of your data was asked for less than a day ago: use the link in its e-mail.";

/** /api/v1/privacy: "Download my data" (docs/decisions/0035-retention-and-data-export.md). */
export function privacyRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = { tags: ["privacy"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const request = apiRoute({
    ...common,
    method: "post",
    path: "/data-export",
    summary: "Ask for a copy of my data",
    description:
      "Queues one JSON file with everything held about the signed-in user (account, interests, subscription, reviews, likes, shares sent and received) and e-mails a link to it, valid 7 days. Asking again within a day returns the same export.",
    responses: { 202: jsonContent(DataExportSchema, "The export, queued or already there") },
  });
  app.openapi(request, async (c) => {
    const { export: row, created } = await requestDataExport(deps, c.get("user").id, new Date());
    return c.json({ ...row, message: created ? EXPORT_QUEUED : EXPORT_PENDING }, 202);
  });

  const download = apiRoute({
    ...common,
    method: "get",
    path: "/data-export/{id}",
    summary: "Download my data",
    request: { params: z.object({ id: z.uuid({ error: "Not a valid export id" }) }) },
    responses: {
      200: {
        description: "The JSON file (account, interests, subscriptions, reviews, likes, shares)",
        content: { "application/json": { schema: z.string() } },
      },
      ...errorResponses(404, 409),
    },
  });
  app.openapi(download, async (c) => {
    const content = await readDataExport(deps.db, c.get("user").id, c.req.valid("param").id, new Date());
    return c.body(content, 200, {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": 'attachment; filename="litreview-my-data.json"',
      "cache-control": "no-store",
    }) as never;
  });

  return app;
}
