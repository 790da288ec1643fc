import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { requireUser, resolveUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import { dataExportPagePath, isExportId, readDataExport, requestDataExport } from "./data-export.ts";

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

  /**
   * A browser opening the file's address signed out (the link of an e-mail sent before links led to the download
   * page) is sent to that page, which leads through the login page and back (issue 35: it answered raw JSON).
   * A browser navigation says so in Sec-Fetch-Mode (Fetch Metadata) or, from an older browser, by accepting HTML;
   * API clients get the 401 as before.
   */
  const signedOutBrowser: MiddlewareHandler<AuthEnv> = async (c, next) => {
    const id = c.req.param("id") ?? "";
    const navigation =
      c.req.header("sec-fetch-mode") === "navigate" || /\btext\/html\b/.test(c.req.header("accept") ?? "");
    if (navigation && isExportId(id) && !(await resolveUser(deps, c))) return c.redirect(dataExportPagePath(id), 302);
    await next();
  };

  const download = apiRoute({
    ...common,
    middleware: [signedOutBrowser, requireUser(deps)],
    method: "get",
    path: "/data-export/{id}",
    summary: "Download my data",
    description:
      "The file of one of the signed-in user's exports. Another account's export is refused with 403 (its link was sent to that account). A browser navigating here without a session is sent to the download page (/my-data/{id}), which leads through the login page.",
    request: { params: z.object({ id: z.uuid({ error: "Not a valid export id" }) }) },
    responses: {
      200: {
        description: "The JSON file (account, interests, subscriptions, reviews, likes, shares)",
        content: { "application/json": { schema: z.string() } },
      },
      302: { description: "A browser without a session: to the download page, which asks to log in first" },
      ...errorResponses(403, 404, 409),
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
