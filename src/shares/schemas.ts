import { z } from "@hono/zod-openapi";
import { KeptArticleSchema } from "../articles/schemas.ts";
import { emailField } from "../users/schemas.ts";

export { pmidParamSchema } from "../articles/schemas.ts";
export { keptListQuerySchema, UNKNOWN_LIST_CURSOR } from "../likes/schemas.ts";
import { keptListQuerySchema } from "../likes/schemas.ts";

/** POST /shares/{pmid}: the colleague's account address. */
export const shareRequestSchema = z.object({ recipient_email: emailField("Recipient email") }).openapi("ShareRequest");

/**
 * The sender's view of a share it just made: the same shape whether the address has an account (the share) or not
 * (an invitation to join), so the answer tells nothing about the address.
 */
export const ShareSentSchema = z
  .object({
    id: z.string().openapi({ format: "uuid", description: "The share's id, or the invitation's" }),
    article_pmid: z.number().int(),
    recipient_email: z.string(),
    shared_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ShareSent");
export type ShareSent = z.infer<typeof ShareSentSchema>;

/** Who shared: null once the sharer has deleted their account (the page then says 'Unknown User'). */
export const SharerSchema = z
  .object({ id: z.string(), full_name: z.string().nullable(), email: z.string() })
  .nullable()
  .openapi("Sharer");

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

/** GET /shares/received/ids: one received share, by its id and its article's PMID only. */
export const ReceivedShareRefSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    article_pmid: z.number().int(),
  })
  .openapi("ReceivedShareRef");
export type ReceivedShareRef = z.infer<typeof ReceivedShareRefSchema>;

/**
 * The `{share_id}` path parameter. Not validated as a uuid: any id that is not one of the caller's received shares is
 * 404.
 */
export const shareIdParamSchema = z.object({
  share_id: z
    .string()
    .max(100, "Share id must be at most 100 characters")
    .openapi({ param: { name: "share_id", in: "path" }, format: "uuid" }),
});

/**
 * GET /shares/received: the optional skip/limit paging, or a page that continues `after` the id of the previous page's
 * last share (keyset pagination).
 */
export const receivedListQuerySchema = keptListQuerySchema
  .extend({
    after: z.uuid("after must be the id of a share of the list").optional().openapi({
      description: "The id of the previous page's last share: the page continues after it (not with skip).",
    }),
  })
  .refine((q) => q.after === undefined || q.skip === undefined, {
    message: "Give skip or after, not both.",
    path: ["after"],
  });

/** GET and PUT /shares/email-setting: whether the caller is e-mailed when someone shares an article with them. */
export const ShareEmailSettingSchema = z
  .object({ share_emails: z.boolean({ error: "share_emails must be true or false" }) })
  .openapi("ShareEmailSetting");
