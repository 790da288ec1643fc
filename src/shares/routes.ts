import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { MessageSchema, SIGNED_IN, apiRoute, createApi, errorResponses, jsonBody, jsonContent } from "../http/openapi.ts";
import * as shares from "./service.ts";
import { ReceivedShareSchema, ShareSentSchema, keptListQuerySchema, pmidParamSchema, shareIdParamSchema, shareRequestSchema } from "./schemas.ts";

/** /api/v1/shares (spec §7): share an article with a colleague by e-mail; list and delete the shares one received. */
export function sharesRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = { tags: ["shares"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const received = apiRoute({
    ...common,
    method: "get",
    path: "/received",
    summary: "List the shares I received, newest first",
    description: "A plain list. Without skip and limit, all of them; with them, that page (limit at most 1000).",
    request: { query: keptListQuerySchema },
    responses: { 200: jsonContent(z.array(ReceivedShareSchema), "Received shares") },
  });
  app.openapi(received, async (c) => {
    const { skip, limit } = c.req.valid("query");
    return c.json(await shares.receivedShares(deps, c.get("user").id, skip, limit), 200);
  });

  const remove = apiRoute({
    ...common,
    method: "delete",
    path: "/received/{share_id}",
    summary: "Delete a share I received",
    request: { params: shareIdParamSchema },
    responses: { 200: jsonContent(MessageSchema, "Deleted"), ...errorResponses(404) },
  });
  app.openapi(remove, async (c) => {
    await shares.deleteReceivedShare(deps, c.get("user").id, c.req.valid("param").share_id);
    return c.json({ message: "Share deleted" }, 200);
  });

  const share = apiRoute({
    ...common,
    method: "post",
    path: "/{article_pmid}",
    summary: "Share an article with a colleague",
    description:
      "The recipient (an active account) gets an e-mail naming the sharer and the article, with a link that opens it. " +
      "Sharing with oneself is 400, an unknown article or address 404, the same article to the same person again 409 (no second e-mail); at most 50 shares an hour (429).",
    request: { params: pmidParamSchema, body: jsonBody(shareRequestSchema) },
    responses: { 200: jsonContent(ShareSentSchema, "The share"), ...errorResponses(400, 404, 409, 429) },
  });
  app.openapi(share, async (c) => {
    const body = c.req.valid("json");
    return c.json(await shares.shareArticle(deps, c.get("user"), c.req.valid("param").article_pmid, body.recipient_email), 200);
  });

  return app;
}
