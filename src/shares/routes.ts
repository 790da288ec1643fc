import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import {
  MessageSchema,
  SIGNED_IN,
  apiRoute,
  createApi,
  errorResponses,
  jsonBody,
  jsonContent,
} from "../http/openapi.ts";
import * as shares from "./service.ts";
import {
  ReceivedShareRefSchema,
  ReceivedShareSchema,
  ShareEmailSettingSchema,
  ShareSentSchema,
  pmidParamSchema,
  receivedListQuerySchema,
  shareIdParamSchema,
  shareRequestSchema,
} from "./schemas.ts";

/** An app of this module's routes. */
type SharesApi = OpenAPIHono<AuthEnv>;

/** What every route here declares: its tag, a bearer token, and the signed-in user it needs. */
function routeDefaults(deps: AppDeps) {
  return { tags: ["shares"], security: SIGNED_IN, middleware: [requireUser(deps)] };
}
type RouteDefaults = ReturnType<typeof routeDefaults>;

/**
 * /api/v1/shares (docs/product.md §7): share an article with a colleague by e-mail; list and delete the shares one
 * received.
 */
export function sharesRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = routeDefaults(deps);
  // Registered in this order, which is the order of the API document.
  registerReceivedShares(app, deps, common);
  registerSharing(app, deps, common);
  registerShareEmailSetting(app, deps, common);
  return app;
}

/** GET /received, GET /received/ids and DELETE /received/{share_id}: the shares the caller received. */
function registerReceivedShares(app: SharesApi, deps: AppDeps, common: RouteDefaults): void {
  const received = apiRoute({
    ...common,
    method: "get",
    path: "/received",
    summary: "List the shares I received, newest first",
    description:
      "A plain list. Without skip and limit, all of them; with them, that page (limit at most 1000). " +
      "With after (the id of the previous page's last share) instead of skip, the page that follows it; " +
      "400 when that share is not in the list.",
    request: { query: receivedListQuerySchema },
    responses: { 200: jsonContent(z.array(ReceivedShareSchema), "Received shares"), ...errorResponses(400) },
  });
  app.openapi(received, async (c) =>
    c.json(await shares.receivedShares(deps, c.get("user").id, c.req.valid("query")), 200),
  );

  const ids = apiRoute({
    ...common,
    method: "get",
    path: "/received/ids",
    summary: "List the ids of the shares I received, newest first",
    description:
      "Each received share as its id and its article's PMID only, in the order of GET /shares/received: enough to " +
      "count them, to ask for any page of that list (after the id that ends the page before) and to find the page " +
      "of an article, without loading every shared article.",
    responses: { 200: jsonContent(z.array(ReceivedShareRefSchema), "Received share ids") },
  });
  app.openapi(ids, async (c) => c.json(await shares.receivedShareRefs(deps, c.get("user").id), 200));

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
}

/** POST /{article_pmid}: shares an article with a colleague, or invites the address to join. */
function registerSharing(app: SharesApi, deps: AppDeps, common: RouteDefaults): void {
  const share = apiRoute({
    ...common,
    method: "post",
    path: "/{article_pmid}",
    summary: "Share an article with a colleague",
    description:
      "With an active account at the address, the share is recorded for it and its owner is e-mailed (unless they " +
      "turned share e-mails off); otherwise the address gets an invitation to join LitReview and read the article. " +
      "The answer is the same either way: it never tells whether an address has an account. Sharing with oneself is " +
      "400, an article the index does not hold 404, the same article to the same address again 409 (no second " +
      "e-mail); at most 50 shares and invitations an hour, past which every address gets 429.",
    request: { params: pmidParamSchema, body: jsonBody(shareRequestSchema) },
    responses: { 200: jsonContent(ShareSentSchema, "The share or invitation"), ...errorResponses(400, 404, 409, 429) },
  });
  app.openapi(share, async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await shares.shareArticle(deps, c.get("user"), c.req.valid("param").article_pmid, body.recipient_email),
      200,
    );
  });
}

/** GET and PUT /email-setting: whether the caller is e-mailed about shares. */
function registerShareEmailSetting(app: SharesApi, deps: AppDeps, common: RouteDefaults): void {
  const readSetting = apiRoute({
    ...common,
    method: "get",
    path: "/email-setting",
    summary: "Whether I am e-mailed when someone shares an article with me",
    responses: { 200: jsonContent(ShareEmailSettingSchema, "The setting") },
  });
  app.openapi(readSetting, async (c) => {
    return c.json({ share_emails: await shares.shareEmailSetting(deps, c.get("user").id) }, 200);
  });

  const writeSetting = apiRoute({
    ...common,
    method: "put",
    path: "/email-setting",
    summary: "Turn e-mails about articles shared with me on or off",
    description: "Only the caller's own setting. Shares still appear under Received Shares either way.",
    request: { body: jsonBody(ShareEmailSettingSchema) },
    responses: { 200: jsonContent(ShareEmailSettingSchema, "The new setting") },
  });
  app.openapi(writeSetting, async (c) => {
    const { share_emails } = c.req.valid("json");
    await shares.setShareEmails(deps, c.get("user").id, share_emails);
    return c.json({ share_emails }, 200);
  });
}
