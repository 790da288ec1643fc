import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses } from "../http/openapi.ts";
import { MAX_SKIP } from "../users/schemas.ts";
import { reviewIdParamSchema } from "../reviews/schemas.ts";
import { ownReview as reviewOf } from "../reviews/service.ts";
import { EXPORT_FORMATS, exportFileName, summaryWithReferences, type ExportFormat } from "./formats.ts";
import {
  MAX_EXPORT_RECORDS,
  likedBatches,
  likedCount,
  reviewListBatches,
  reviewListCount,
  reviewListForExport,
  type ExportWindow,
} from "./repository.ts";
import { referenceStream } from "./stream.ts";
import { evidenceCsv, evidenceCsvFileName } from "./evidence-csv.ts";
import { storedEvidenceTable } from "../reviews/schemas.ts";
import { ApiError } from "../http/errors.ts";

/** The answer for a review with no evidence table (made before it existed, or not summarised yet). */
export const NO_EVIDENCE_TABLE = "This review has no evidence table.";

const formatQuery = z.object({
  format: z
    .enum(Object.keys(EXPORT_FORMATS) as [ExportFormat, ...ExportFormat[]], {
      error: "format must be one of ris, bibtex, csl-json, nbib",
    })
    .openapi({ example: "ris", description: "ris, bibtex, csl-json or nbib (MEDLINE): sets the answer's media type" }),
  // The cap of one file (docs/decisions/0033-api-lint-and-streamed-exports.md); X-Total-Count tells what is left.
  skip: z.coerce
    .number({ error: "skip must be a number" })
    .int()
    .min(0)
    .max(MAX_SKIP, `skip must be at most ${MAX_SKIP}`)
    .default(0)
    .openapi({ description: "Records of the list to leave out first (the part of a list beyond one file's limit)" }),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int()
    .min(1)
    .max(MAX_EXPORT_RECORDS, `limit must be at most ${MAX_EXPORT_RECORDS}`)
    .default(MAX_EXPORT_RECORDS)
    .openapi({ description: `Most records in the file (at most ${MAX_EXPORT_RECORDS}, the default)` }),
});
const reviewListQuery = formatQuery.extend({
  list: z
    .enum(["cited", "relevant"], { error: "list must be cited or relevant" })
    .default("cited")
    .openapi({ description: "cited: in citation order; relevant: every ranked article (up to 100), best first" }),
});

/** The media type of each format without its charset (the answer adds `; charset=utf-8`), as the document lists it. */
const mediaType = (format: ExportFormat) => EXPORT_FORMATS[format].contentType.split(";")[0]!;

/** The 200 of a reference export: the file in each format's own media type, and the list's length. */
const referenceFile = {
  description: "The references, as a file to save, sent in parts as they are written (no Content-Length)",
  headers: {
    "X-Total-Count": {
      description: "Records in the whole list: more than skip + limit means another file holds the rest",
      schema: { type: "integer" as const, minimum: 0 },
    },
    "Content-Disposition": { description: "attachment, with the file's name", schema: { type: "string" as const } },
  },
  content: Object.fromEntries(
    (Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((f) => [
      mediaType(f),
      {
        schema:
          f === "csl-json"
            ? z.array(z.record(z.string(), z.unknown())).openapi({ description: "CSL-JSON items" })
            : z.string().openapi({ description: `The ${f} file` }),
      },
    ]),
  ),
};

/** A downloadable answer: the file's type and the name a browser saves it under (ASCII, so filename* repeats it). */
function attachment(c: Context, body: ReadableStream<Uint8Array>, format: ExportFormat, name: string, total: number) {
  const disposition = `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;
  const headers = {
    "content-type": EXPORT_FORMATS[format].contentType,
    "content-disposition": disposition,
    "cache-control": "no-store",
    "x-total-count": String(total),
  };
  return c.body(body, 200, headers);
}

/** An app of this module's routes. */
type ExportApi = OpenAPIHono<AuthEnv>;

/** What the export routes share: the declaration every route makes (tag, token, signed-in user) and the clock. */
interface ExportContext {
  deps: AppDeps;
  common: { tags: string[]; security: typeof SIGNED_IN; middleware: MiddlewareHandler<AuthEnv>[] };
  /** The time stamped in a file's name. */
  now: () => Date;
  /** The caller's review (404 for another user's). */
  ownReview: (userId: string, id: string) => ReturnType<typeof reviewOf>;
}

/**
 * /api/v1/export (issue 13): a user's liked articles and a review's cited or relevant articles as RIS, BibTeX,
 * CSL-JSON or MEDLINE (.nbib) for Zotero, EndNote and Mendeley, and a review's summary with Vancouver references.
 * Only ever the caller's own likes and reviews (another user's review is 404). Reference files are streamed in
 * batches that give the event loop back (src/export/stream.ts), at most MAX_EXPORT_RECORDS records per file (issue 22).
 */
export function exportRoutes(deps: AppDeps, options: { now?: () => Date } = {}) {
  const app = createApi<AuthEnv>();
  const ctx: ExportContext = {
    deps,
    common: { tags: ["export"], security: SIGNED_IN, middleware: [requireUser(deps)] },
    now: options.now ?? (() => new Date()),
    ownReview: (userId, id) => reviewOf(deps.db, userId, id),
  };
  // Registered in this order, which is the order of the API document.
  registerReferenceExports(app, ctx);
  registerReviewTextExports(app, ctx);
  return app;
}

/** GET /likes and GET /reviews/{lit_review_id}: reference files of the caller's likes and of a review's lists. */
function registerReferenceExports(app: ExportApi, ctx: ExportContext): void {
  const { deps, common, now, ownReview } = ctx;
  const likes = apiRoute({
    ...common,
    method: "get",
    path: "/likes",
    summary: "Export my liked articles",
    description: `Newest like first; at most ${MAX_EXPORT_RECORDS} records per file (limit), the rest with skip.`,
    request: { query: formatQuery },
    responses: { 200: referenceFile },
  });
  app.openapi(likes, async (c) => {
    const { format, skip, limit } = c.req.valid("query");
    const userId = c.get("user").id;
    const window: ExportWindow = { skip, limit };
    const total = await likedCount(deps.db, userId);
    const body = await referenceStream(likedBatches(deps.db, userId, window), format);
    return attachment(c, body, format, exportFileName({ likes: true }, format, now()), total) as never;
  });

  const reviewList = apiRoute({
    ...common,
    method: "get",
    path: "/reviews/{lit_review_id}",
    summary: "Export a review's cited or relevant articles",
    description: `In the list's order; at most ${MAX_EXPORT_RECORDS} records per file (limit), the rest with skip.`,
    request: { params: reviewIdParamSchema, query: reviewListQuery },
    responses: { 200: referenceFile, ...errorResponses(404) },
  });
  app.openapi(reviewList, async (c) => {
    const { lit_review_id } = c.req.valid("param");
    const { format, list, skip, limit } = c.req.valid("query");
    const review = await ownReview(c.get("user").id, lit_review_id);
    const fileName = exportFileName({ topic: review.user_query, list }, format, now());
    const total = await reviewListCount(deps.db, lit_review_id, list);
    const body = await referenceStream(reviewListBatches(deps.db, lit_review_id, list, { skip, limit }), format);
    return attachment(c, body, format, fileName, total) as never;
  });
}

/** GET /reviews/{lit_review_id}/summary and /evidence: a review's summary as text and its evidence table as CSV. */
function registerReviewTextExports(app: ExportApi, ctx: ExportContext): void {
  const { deps, common, now, ownReview } = ctx;
  const summary = apiRoute({
    ...common,
    method: "get",
    path: "/reviews/{lit_review_id}/summary",
    summary: "A review's summary with its references in Vancouver style",
    description:
      "Plain text for pasting into a manuscript: the summary without markup, its [n] citations as written, then the numbered references.",
    request: { params: reviewIdParamSchema },
    responses: {
      200: { description: "The summary and references", content: { "text/plain": { schema: z.string() } } },
      ...errorResponses(404),
    },
  });
  app.openapi(summary, async (c) => {
    const { lit_review_id } = c.req.valid("param");
    const review = await ownReview(c.get("user").id, lit_review_id);
    const text = summaryWithReferences(
      review.user_query,
      review.summary,
      await reviewListForExport(deps.db, lit_review_id, "cited"),
    );
    return c.body(text, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }) as never;
  });

  const evidence = apiRoute({
    ...common,
    method: "get",
    path: "/reviews/{lit_review_id}/evidence",
    summary: "A review's evidence table as CSV",
    description:
      "One line per cited study in citation order, PMID first (RFC 4180: quoted fields, CRLF line ends, a header " +
      "line, UTF-8 with a byte-order mark). 404 when the review is not the caller's or has no evidence table yet.",
    request: { params: reviewIdParamSchema },
    responses: {
      200: { description: "The evidence table", content: { "text/csv": { schema: z.string() } } },
      ...errorResponses(404),
    },
  });
  app.openapi(evidence, async (c) => {
    const { lit_review_id } = c.req.valid("param");
    const review = await ownReview(c.get("user").id, lit_review_id);
    const rows = storedEvidenceTable(review.evidence_table);
    if (!rows) throw new ApiError(404, NO_EVIDENCE_TABLE);
    const fileName = evidenceCsvFileName(review.user_query, now());
    const disposition = `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
    const headers = {
      "content-type": "text/csv; charset=utf-8; header=present",
      "content-disposition": disposition,
      "cache-control": "no-store",
    };
    return c.body(evidenceCsv(rows), 200, headers) as never;
  });
}
