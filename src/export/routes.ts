import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses } from "../http/openapi.ts";
import { reviewIdParamSchema } from "../reviews/schemas.ts";
import { ownReview as reviewOf } from "../reviews/service.ts";
import { EXPORT_FORMATS, exportFileName, summaryWithReferences, writeReferences, type ExportFormat } from "./formats.ts";
import { likedForExport, reviewListForExport } from "./repository.ts";

const formatQuery = z.object({
  format: z.enum(Object.keys(EXPORT_FORMATS) as [ExportFormat, ...ExportFormat[]], { error: "format must be one of ris, bibtex, csl-json, nbib" }).openapi({ example: "ris" }),
});
const reviewListQuery = formatQuery.extend({
  list: z.enum(["cited", "relevant"], { error: "list must be cited or relevant" }).default("cited").openapi({ description: "cited: in citation order; relevant: every ranked article (up to 100), best first" }),
});
const file = (description: string) => ({ description, content: { "text/plain": { schema: z.string() } } });

/** A downloadable answer: the file's type and the name a browser saves it under (ASCII, so filename* repeats it). */
function attachment(c: Context, body: string, format: ExportFormat, fileName: string) {
  const disposition = `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
  return c.body(body, 200, { "content-type": EXPORT_FORMATS[format].contentType, "content-disposition": disposition, "cache-control": "no-store" });
}

/**
 * /api/v1/export (issue 13): a user's liked articles and a review's cited or relevant articles as RIS, BibTeX,
 * CSL-JSON or MEDLINE (.nbib) for Zotero, EndNote and Mendeley, and a review's summary with Vancouver references.
 * Only ever the caller's own likes and reviews (another user's review is 404).
 */
export function exportRoutes(deps: AppDeps, options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  const app = createApi<AuthEnv>();
  const common = { tags: ["export"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const likes = apiRoute({
    ...common,
    method: "get",
    path: "/likes",
    summary: "Export my liked articles",
    request: { query: formatQuery },
    responses: { 200: file("The references, as a file to save") },
  });
  app.openapi(likes, async (c) => {
    const { format } = c.req.valid("query");
    return attachment(c, writeReferences(await likedForExport(deps.db, c.get("user").id), format), format, exportFileName({ likes: true }, format, now())) as never;
  });

  const ownReview = (userId: string, id: string) => reviewOf(deps.db, userId, id);

  const reviewList = apiRoute({
    ...common,
    method: "get",
    path: "/reviews/{lit_review_id}",
    summary: "Export a review's cited or relevant articles",
    request: { params: reviewIdParamSchema, query: reviewListQuery },
    responses: { 200: file("The references, as a file to save"), ...errorResponses(404) },
  });
  app.openapi(reviewList, async (c) => {
    const { lit_review_id } = c.req.valid("param");
    const { format, list } = c.req.valid("query");
    const review = await ownReview(c.get("user").id, lit_review_id);
    const fileName = exportFileName({ topic: review.user_query, list }, format, now());
    return attachment(c, writeReferences(await reviewListForExport(deps.db, lit_review_id, list), format), format, fileName) as never;
  });

  const summary = apiRoute({
    ...common,
    method: "get",
    path: "/reviews/{lit_review_id}/summary",
    summary: "A review's summary with its references in Vancouver style",
    description: "Plain text for pasting into a manuscript: the summary without markup, its [n] citations as written, then the numbered references.",
    request: { params: reviewIdParamSchema },
    responses: { 200: file("The summary and references"), ...errorResponses(404) },
  });
  app.openapi(summary, async (c) => {
    const { lit_review_id } = c.req.valid("param");
    const review = await ownReview(c.get("user").id, lit_review_id);
    const text = summaryWithReferences(review.user_query, review.summary, await reviewListForExport(deps.db, lit_review_id, "cited"));
    return c.body(text, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }) as never;
  });

  return app;
}
