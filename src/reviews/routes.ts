import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import type { AppDeps } from "../deps.ts";
import { zodHook } from "../http/errors.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import * as reviews from "./service.ts";
import { detailsQuerySchema, historyQuerySchema, startQuerySchema } from "./schemas.ts";

/**
 * /api/v1/literature_review (spec §7): create, history, start, status, details, delete. Every call needs a
 * signed-in user and sees only that user's reviews; only start requires a review subscription (see service.ts).
 */
export function reviewsRoutes(deps: AppDeps) {
  const app = new Hono<AuthEnv>();
  app.use("*", requireUser(deps));

  app.post("/create", async (c) => c.json(await reviews.createReview(deps, c.get("user").id)));

  app.get("/history", zValidator("query", historyQuerySchema, zodHook("query")), async (c) => {
    const { skip, limit } = c.req.valid("query");
    return c.json(await reviews.listReviews(deps, c.get("user").id, skip, limit));
  });

  app.post(
    "/start/:lit_review_id",
    // The subscription is checked before the topic: someone without access learns that first.
    async (c, next) => {
      await reviews.assertReviewAccess(deps, c.get("user").id);
      await next();
    },
    zValidator("query", startQuerySchema, zodHook("query")),
    async (c) => {
      const review = await reviews.startReview(deps, c.get("user").id, c.req.param("lit_review_id"), c.req.valid("query").user_query);
      return c.json(review);
    },
  );

  app.get("/status/:lit_review_id", async (c) => c.json(await reviews.reviewStatus(deps, c.get("user").id, c.req.param("lit_review_id"))));

  app.get("/details/:lit_review_id", zValidator("query", detailsQuerySchema, zodHook("query")), async (c) => {
    const { fts_skip, fts_limit } = c.req.valid("query");
    return c.json(await reviews.reviewDetails(deps, c.get("user").id, c.req.param("lit_review_id"), fts_skip, fts_limit));
  });

  app.delete("/delete/:lit_review_id", async (c) => {
    await reviews.deleteReview(deps, c.get("user").id, c.req.param("lit_review_id"));
    return c.json({ message: reviews.REVIEW_DELETED });
  });

  return app;
}
