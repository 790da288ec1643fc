import type { components } from "../lib/api-types.gen.ts";

type Schemas = components["schemas"];

/**
 * An article as the cards show it, whichever list it comes from (docs/product.md §3), typed from the server's OpenAPI
 * document (islands/lib/api-types.gen.ts): the fields of its KeptArticle, which every article shape of the API has
 * (review lists, likes, shares, suggestions), plus those only some lists carry: `abstract_sections` (a review's
 * articles), `covers_topic` (a review's relevant list: false for a partial match), `in_index` (likes and shares: false
 * once the record has left the index, when only pmid is set). Every field but pmid may be missing: the cards show
 * the product's text for a missing one, so any of the API's shapes, or a part of one, can be shown.
 */
export type Article = Pick<Schemas["KeptArticle"], "pmid"> &
  Partial<Omit<Schemas["KeptArticle"], "pmid">> & {
    abstract_sections?: Schemas["Article"]["abstract_sections"];
    covers_topic?: boolean;
  };
