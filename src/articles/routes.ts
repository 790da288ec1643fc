import type { AppDeps } from "../deps.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { ApiError } from "../http/errors.ts";
import { SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import { extractEvidence } from "../reviews/evidence/extract.ts";
import { StudyEvidenceSchema } from "../reviews/evidence/schemas.ts";
import { readArticle, readSummaryArticle } from "./repository.ts";
import { ArticlePublicSchema, pmidParamSchema } from "./schemas.ts";

/** The detail of a PMID the index does not hold. */
export const ARTICLE_NOT_FOUND = "Article not found";

/**
 * /api/v1/articles (docs/product.md §3, §10): one article of the index with its citation fields, and the evidence
 * the review's evidence table reads from its abstract. Signed-in users; articles are public records, so any
 * signed-in user may read any of them.
 */
export function articlesRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = { tags: ["articles"], security: SIGNED_IN, middleware: [requireUser(deps)] };

  const article = apiRoute({
    ...common,
    method: "get",
    path: "/{article_pmid}",
    summary: "Read an article",
    description:
      "The article with its abstract's sections, its citation fields and its record's evidence; 404 when the index does not hold it.",
    request: { params: pmidParamSchema },
    responses: { 200: jsonContent(ArticlePublicSchema, "The article"), ...errorResponses(404, 422) },
  });
  app.openapi(article, async (c) => {
    const found = await readArticle(deps.db, c.req.valid("param").article_pmid);
    if (!found) throw new ApiError(404, ARTICLE_NOT_FOUND);
    return c.json(found, 200);
  });

  const evidence = apiRoute({
    ...common,
    method: "get",
    path: "/{article_pmid}/evidence",
    summary: "Read an article's evidence",
    description:
      "What a review's evidence table shows of this article: design and level, appraisal, participants, PICO spans, " +
      "the main result and every between-group result, each number with the sentence it was read from; null where " +
      "the abstract does not state it or the extractor is not sure. 404 when the index does not hold the article.",
    request: { params: pmidParamSchema },
    responses: { 200: jsonContent(StudyEvidenceSchema, "The article's evidence"), ...errorResponses(404, 422) },
  });
  app.openapi(evidence, async (c) => {
    const found = await readSummaryArticle(deps.db, c.req.valid("param").article_pmid);
    if (!found) throw new ApiError(404, ARTICLE_NOT_FOUND);
    return c.json(extractEvidence(found), 200);
  });
  return app;
}
