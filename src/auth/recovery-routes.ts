import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { ApiError, zodHook } from "../http/errors.ts";
import { requireSuperuser, requireUser, type AuthEnv } from "./middleware.ts";
import { LIMITS, assertAllowed, clientIp, hit } from "./rate-limit.ts";
import { buildRecoveryEmail, resetPassword, sendRecoveryEmail } from "./recovery.ts";
import { runInBackground } from "../email/service.ts";
import { findUserByEmail } from "../users/repository.ts";
import { emailField, passwordField } from "../users/schemas.ts";

const emailParamSchema = z.object({ email: emailField() });

const newPasswordSchema = z.object({
  token: z
    .string({ error: "Token is required" })
    .trim()
    .min(1, "Token is required")
    .max(512, "Invalid token"),
  new_password: passwordField(),
});

/** The one answer of POST /password-recovery/{email}, whether or not the address has an account. */
export const RECOVERY_SENT = { message: "Password recovery email sent" } as const;

/**
 * Password recovery, mounted at /api/v1 (its paths are top-level in the API, as in the FastAPI template):
 * - POST /password-recovery/{email}: mails a reset link if the address has an active account; always the same
 *   answer, given before any lookup (the lookup and the mail happen after the response), so neither the body nor
 *   the timing tells whether the address exists. Rate limited per client address and per e-mail address.
 * - POST /reset-password/: sets the new password with the token from the link.
 * - POST /password-recovery-html-content/{email}: superusers preview the message (a real, working link).
 */
export function passwordRecoveryRoutes(deps: AppDeps) {
  const app = new Hono<AuthEnv>();

  app.post("/password-recovery/:email", zValidator("param", emailParamSchema, zodHook("path")), async (c) => {
    const { email } = c.req.valid("param");
    const ip = clientIp(c);
    if (ip) assertAllowed(await hit(deps.db, LIMITS.recoveryPerIp, ip));
    assertAllowed(await hit(deps.db, LIMITS.recoveryPerAddress, email));
    runInBackground("password recovery", () => sendRecoveryEmail(deps, email));
    return c.json(RECOVERY_SENT);
  });

  for (const path of ["/reset-password", "/reset-password/"]) {
    app.post(path, zValidator("json", newPasswordSchema, zodHook("body")), async (c) => {
      const { token, new_password } = c.req.valid("json");
      await resetPassword(deps.db, token, new_password);
      return c.json({ message: "Password updated successfully" });
    });
  }

  app.post(
    "/password-recovery-html-content/:email",
    requireUser(deps),
    requireSuperuser,
    zValidator("param", emailParamSchema, zodHook("path")),
    async (c) => {
      const user = await findUserByEmail(deps.db, c.req.valid("param").email);
      if (!user) throw new ApiError(404, "The user with this email does not exist in the system.");
      const message = await buildRecoveryEmail(deps, user);
      return c.html(message.html, 200, { "X-Email-Subject": message.subject });
    },
  );

  return app;
}
