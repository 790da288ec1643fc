import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import {
  MessageSchema,
  SIGNED_IN,
  apiRoute,
  createApi,
  errorResponses,
  jsonBody,
  jsonContent,
} from "../http/openapi.ts";
import { requireSuperuser, requireUser, type AuthEnv } from "./middleware.ts";
import { LIMITS, assertAllowed, hit } from "./rate-limit.ts";
import { requestClientKey } from "./client-address.ts";
import { buildRecoveryEmail, resetPassword } from "./recovery.ts";
import { enqueueRecoveryEmail } from "./recovery-jobs.ts";
import { findUserByEmail } from "../users/repository.ts";
import { emailField, passwordField } from "../users/schemas.ts";

const emailParamSchema = z.object({
  email: emailField().openapi({ param: { name: "email", in: "path" }, example: "ada@example.org" }),
});

const newPasswordSchema = z
  .object({
    token: z
      .string({ error: "Token is required" })
      .trim()
      .min(1, "Token is required")
      .max(512, "Invalid token")
      .openapi({ description: "The token of the reset link (the `token` query parameter of /reset-password)" }),
    new_password: passwordField(),
  })
  .openapi("NewPassword");

/** The one answer of POST /password-recovery/{email}, whether or not the address has an account. */
export const RECOVERY_SENT = { message: "Password recovery email sent" } as const;

/**
 * Password recovery, mounted at /api/v1 (its paths are top-level in the API, as in the FastAPI template):
 * - POST /password-recovery/{email}: mails a reset link if the address has an active account; always the same
 *   answer, given before any lookup (the lookup and the mail happen in a queued job, src/email/jobs.ts), so neither
 *   the body nor the timing tells whether the address exists. Rate limited per client; at most a few mails an hour
 *   reach one address, silently (a stranger cannot block the owner's reset).
 * - POST /reset-password/: sets the new password with the token from the link.
 * - POST /password-recovery-html-content/{email}: superusers preview the message (a real, working link).
 */
export function passwordRecoveryRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();

  const recover = apiRoute({
    method: "post",
    path: "/password-recovery/{email}",
    tags: ["login"],
    summary: "Send a password recovery e-mail",
    description:
      "Always answers the same, whether or not the address has an account. Rate limited per client (429); at most 3 mails an hour go to one address.",
    request: { params: emailParamSchema },
    responses: {
      200: jsonContent(MessageSchema, "Accepted (a message is sent if the address has an active account)"),
      ...errorResponses(429),
    },
  });
  app.openapi(recover, async (c) => {
    const { email } = c.req.valid("param");
    const client = requestClientKey(c, deps.config);
    if (client) assertAllowed(await hit(deps.db, LIMITS.recoveryPerClient, client));
    // The same work whether or not the address has an account: one job stored, looked at later by the worker.
    await enqueueRecoveryEmail(deps, email);
    return c.json(RECOVERY_SENT, 200);
  });

  const reset = apiRoute({
    method: "post",
    path: "/reset-password",
    tags: ["login"],
    summary: "Set a new password with a reset token",
    description: "The token works once and for 48 hours. Every session of the account ends.",
    request: { body: jsonBody(newPasswordSchema) },
    responses: { 200: jsonContent(MessageSchema, "Password updated"), ...errorResponses(400) },
  });
  app.openapi(reset, async (c) => {
    const { token, new_password } = c.req.valid("json");
    await resetPassword(deps.db, token, new_password);
    return c.json({ message: "Password updated successfully" }, 200);
  });

  const preview = apiRoute({
    method: "post",
    path: "/password-recovery-html-content/{email}",
    tags: ["login"],
    summary: "Preview the recovery e-mail (superusers)",
    description:
      "Returns the HTML of the message (with a real, working link); its subject is in the X-Email-Subject header.",
    security: SIGNED_IN,
    middleware: [requireUser(deps), requireSuperuser],
    request: { params: emailParamSchema },
    responses: {
      200: { description: "The message's HTML", content: { "text/html": { schema: z.string() } } },
      ...errorResponses(403, 404),
    },
  });
  app.openapi(preview, async (c) => {
    const user = await findUserByEmail(deps.db, c.req.valid("param").email);
    if (!user) throw new ApiError(404, "The user with this email does not exist in the system.");
    const message = await buildRecoveryEmail(deps, user);
    return c.html(message.html, 200, { "X-Email-Subject": message.subject });
  });

  return app;
}
