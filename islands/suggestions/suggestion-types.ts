/**
 * The types of the weekly suggestions, shared by the page (./Suggestions.tsx) and its sections
 * (./SuggestionSection.tsx), which loads as its own chunk: kept apart so that neither imports the other for a type.
 */
import type { components } from "../lib/api-types.gen.ts";

/** A suggested article: the article and why it was suggested. */
export type SuggestedArticle = components["schemas"]["SuggestedArticle"];

/** GET /suggestions/weekly/latest (docs/product.md §3). */
export type WeeklySuggestions = components["schemas"]["WeeklySuggestions"];

/** The API's name of one section's list of articles. */
export type SectionKey = "new_weekly_articles" | "new_yearly_articles" | "pertinent_articles" | "disruptive_articles";
