import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { MessageSchema, SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import * as likes from "./service.ts";
import {
  LikeStatusSchema,
  LikedArticleSchema,
  LikedPmidsSchema,
  likesListQuerySchema,
  pmidParamSchema,
} from "./schemas.ts";

/**
 * /api/v1/likes (docs/product.md §7): like, unlike, the user's liked articles, one article's like status. Only ever the
 * caller's.
 */
export function likesRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = { tags: ["likes"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const like = apiRoute({
    ...common,
    method: "post",
    path: "/{article_pmid}",
    summary: "Like an article",
    description:
      "Idempotent: liking an article already liked changes nothing and keeps the first liked_at. A like that races " +
      "an unlike of the same article is made again; 409 only if it loses that race five times in a row.",
    request: { params: pmidParamSchema },
    responses: { 200: jsonContent(LikedArticleSchema, "The liked article"), ...errorResponses(404, 409) },
  });
  app.openapi(like, async (c) =>
    c.json(await likes.like(deps, c.get("user").id, c.req.valid("param").article_pmid), 200),
  );

  const unlike = apiRoute({
    ...common,
    method: "delete",
    path: "/{article_pmid}",
    summary: "Unlike an article",
    description: "Idempotent: unliking an article that is not liked is not an error.",
    request: { params: pmidParamSchema },
    responses: { 200: jsonContent(MessageSchema, "The article is not liked") },
  });
  app.openapi(unlike, async (c) => {
    await likes.unlike(deps, c.get("user").id, c.req.valid("param").article_pmid);
    return c.json({ message: "Article unliked" }, 200);
  });

  const my = apiRoute({
    ...common,
    method: "get",
    path: "/my",
    summary: "List my liked articles, newest first",
    description:
      "A plain list. Without skip and limit, all of them; with them, that page (limit at most 1000). " +
      "With after (the PMID of the previous page's last entry) instead of skip, the page that follows it; " +
      "400 when that PMID is not in the list.",
    request: { query: likesListQuerySchema },
    responses: { 200: jsonContent(z.array(LikedArticleSchema), "Liked articles"), ...errorResponses(400) },
  });
  app.openapi(my, async (c) => c.json(await likes.myLikes(deps, c.get("user").id, c.req.valid("query")), 200));

  const pmids = apiRoute({
    ...common,
    method: "get",
    path: "/my/pmids",
    summary: "List the PMIDs I like, newest first",
    description:
      "Only the PMIDs (integers), for showing which articles of a page are liked without loading every liked article.",
    responses: { 200: jsonContent(LikedPmidsSchema, "Liked PMIDs") },
  });
  app.openapi(pmids, async (c) => c.json(await likes.myLikedPmids(deps, c.get("user").id), 200));

  const status = apiRoute({
    ...common,
    method: "get",
    path: "/status/{article_pmid}",
    summary: "Whether I like an article",
    request: { params: pmidParamSchema },
    responses: { 200: jsonContent(LikeStatusSchema, "The like status") },
  });
  app.openapi(status, async (c) =>
    c.json(await likes.likeStatus(deps, c.get("user").id, c.req.valid("param").article_pmid), 200),
  );

  return app;
}
