import { z } from "@hono/zod-openapi";
import { KeptArticleSchema } from "../articles/schemas.ts";
import { emailField } from "../users/schemas.ts";

export { pmidParamSchema } from "../articles/schemas.ts";
export { keptListQuerySchema } from "../likes/schemas.ts";

/** POST /shares/{pmid}: the colleague's account address. */
export const shareRequestSchema = z.object({ recipient_email: emailField("Recipient email") }).openapi("ShareRequest");

/** The sender's view of a share it just made. */
export const ShareSentSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    article_pmid: z.number().int(),
    recipient_email: z.string(),
    shared_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ShareSent");
export type ShareSent = z.infer<typeof ShareSentSchema>;

/** Who shared: null once the sharer has deleted their account (the page then says 'Unknown User'). */
export const SharerSchema = z.object({ id: z.string(), full_name: z.string().nullable(), email: z.string() }).nullable().openapi("Sharer");

/** A received share: its id (to delete it), who shared it and when, and the article. */
export const ReceivedShareSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    article_pmid: z.number().int(),
    shared_at: z.string().openapi({ format: "date-time" }),
    sharer: SharerSchema,
    article: KeptArticleSchema,
  })
  .openapi("ReceivedShare");
export type ReceivedShare = z.infer<typeof ReceivedShareSchema>;

/** The `{share_id}` path parameter. Not validated as a uuid: any id that is not one of the caller's received shares is 404. */
export const shareIdParamSchema = z.object({
  share_id: z.string().max(100, "Share id must be at most 100 characters").openapi({ param: { name: "share_id", in: "path" }, format: "uuid" }),
});
