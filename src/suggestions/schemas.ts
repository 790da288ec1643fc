import { z } from "@hono/zod-openapi";
import { KeptArticleSchema } from "../articles/schemas.ts";

/** A suggested article: the article, why it was suggested (the card's why-line) and which signal chose it. */
export const SuggestedArticleSchema = KeptArticleSchema.extend({
  reason: z.string().openapi({ example: 'Matches your interest "sepsis"' }),
  signal: z.string().openapi({
    description:
      "what chose it: interest, like, likes (the liked articles together), cd_index (citations) or mesh_novelty",
  }),
}).openapi("SuggestedArticle");
export type SuggestedArticle = z.infer<typeof SuggestedArticleSchema>;

const list = z.array(SuggestedArticleSchema);
const summary = z
  .string()
  .nullable()
  .openapi({ description: "Cited summary of the section; [n] is the section's n-th article" });

/** GET /suggestions/weekly/latest (docs/product.md §3 Weekly suggestions). */
export const WeeklySuggestionsSchema = z
  .object({
    id: z.string(),
    week: z.string().openapi({ example: "2026-W48", description: "ISO 8601 week" }),
    created_at: z.string().openapi({ format: "date-time" }),
    new_weekly_articles: list,
    new_yearly_articles: list,
    pertinent_articles: list,
    disruptive_articles: list,
    new_weekly_articles_summary: summary,
    new_yearly_articles_summary: summary,
    pertinent_articles_summary: summary,
    disruptive_articles_summary: summary,
  })
  .openapi("WeeklySuggestions");
export type WeeklySuggestions = z.infer<typeof WeeklySuggestionsSchema>;
