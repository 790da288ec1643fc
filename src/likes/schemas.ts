import { z } from "@hono/zod-openapi";
import { KeptArticleSchema } from "../articles/schemas.ts";
import { MAX_SKIP } from "../users/schemas.ts";

export { pmidParamSchema } from "../articles/schemas.ts";

/** A liked article: the article (docs/product.md §3) and when the user first liked it. */
export const LikedArticleSchema = KeptArticleSchema.extend({
  liked_at: z
    .string()
    .openapi({ format: "date-time", description: "When the user first liked it; liking again keeps it" }),
}).openapi("LikedArticle");
export type LikedArticle = z.infer<typeof LikedArticleSchema>;

/** GET /likes/status/{pmid}. */
export const LikeStatusSchema = z
  .object({
    article_pmid: z.number().int(),
    liked: z.boolean(),
    liked_at: z.string().nullable().openapi({ format: "date-time" }),
  })
  .openapi("LikeStatus");

/**
 * Optional paging of the lists of kept articles (likes, received shares). Without it the whole list comes back, as the
 * product's client reads it (a plain list); with it, a page of at most 1000, newest first.
 */
export const keptListQuerySchema = z.object({
  skip: z.coerce
    .number({ error: "skip must be a number" })
    .int()
    .min(0)
    .max(MAX_SKIP, `skip must be at most ${MAX_SKIP}`)
    .optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(1000).optional(),
});

/** The detail of a page asked to continue after an entry the list does not hold (any more). */
export const UNKNOWN_LIST_CURSOR = "The entry to continue after is not in the list.";

/**
 * GET /likes/my: the optional skip/limit paging, or a page that continues `after` the PMID of the previous page's
 * last entry (keyset pagination: a page deep in a long list costs what the first does).
 */
export const likesListQuerySchema = keptListQuerySchema
  .extend({
    after: z.coerce
      .number({ error: "after must be a number" })
      .int()
      .min(1, "after must be a PMID of the list")
      .max(2_147_483_647, "after must be a PMID of the list")
      .optional()
      .openapi({
        description: "The PMID of the previous page's last entry: the page continues after it (not with skip).",
      }),
  })
  .refine((q) => q.after === undefined || q.skip === undefined, {
    message: "Give skip or after, not both.",
    path: ["after"],
  });

/** GET /likes/my/pmids: the PMIDs the user likes, newest like first. */
export const LikedPmidsSchema = z.array(z.number().int()).openapi("LikedPmids");
