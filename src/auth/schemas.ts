import { z } from "@hono/zod-openapi";

/** The OAuth2 password form of POST /login/access-token (form-encoded; other OAuth2 fields are ignored). */
export const loginFormSchema = z
  .object({
    username: z
      .string({ error: "Username is required" })
      .trim()
      .min(1, "Username is required")
      .max(255, "Username must be at most 255 characters")
      .openapi({ description: "The account's e-mail address", example: "ada@example.org" }),
    password: z
      .string({ error: "Password is required" })
      .min(1, "Password is required")
      .max(1024, "Password must be at most 1024 characters")
      .openapi({ format: "password" }),
  })
  .openapi("LoginForm");

/** The OAuth2 token response. */
export const TokenSchema = z
  .object({
    access_token: z.string().openapi({ description: "HS256 JWT; send it as `Authorization: Bearer <token>`" }),
    token_type: z.literal("bearer"),
  })
  .openapi("Token");
