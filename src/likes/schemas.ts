import { z } from "@hono/zod-openapi";
import { KeptArticleSchema } from "../articles/schemas.ts";
import { MAX_SKIP } from "../users/schemas.ts";

export { pmidParamSchema } from "../articles/schemas.ts";

/** A liked article: the article (spec §3) and when the user first liked it. */
export const LikedArticleSchema = KeptArticleSchema.extend({
  liked_at: z.string().openapi({ format: "date-time", description: "When the user first liked it; liking again keeps it" }),
}).openapi("LikedArticle");
export type LikedArticle = z.infer<typeof LikedArticleSchema>;

/** GET /likes/status/{pmid}. */
export const LikeStatusSchema = z
  .object({ article_pmid: z.number().int(), liked: z.boolean(), liked_at: z.string().nullable().openapi({ format: "date-time" }) })
  .openapi("LikeStatus");

/**
 * Optional paging of the lists of kept articles (likes, received shares). Without it the whole list comes back, as the
 * spec's client reads it (a plain list); with it, a page of at most 1000, newest first.
 */
export const keptListQuerySchema = z.object({
  skip: z.coerce.number({ error: "skip must be a number" }).int().min(0).max(MAX_SKIP, `skip must be at most ${MAX_SKIP}`).optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(1000).optional(),
});
