import { normalizeFilters } from "./filters.ts";
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import type { AppDeps } from "../deps.ts";
import { MAX_STREAMS_PER_USER, acquireStreamSlot, statusKey, watchReview } from "./status-streams.ts";
import { requireUser, type AuthEnv } from "../auth/middleware.ts";
import { MessageSchema, SIGNED_IN, apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";
import * as reviews from "./service.ts";
import {
  ReviewDetailsSchema,
  ReviewPublicSchema,
  ReviewStatusSchema,
  ReviewsPublicSchema,
  detailsQuerySchema,
  historyQuerySchema,
  reviewIdParamSchema,
  startQuerySchema,
} from "./schemas.ts";

/** An app of this module's routes. */
type ReviewsApi = OpenAPIHono<AuthEnv>;

/** What every route here declares: its tag, a bearer token, and the signed-in user it needs. */
function routeDefaults(deps: AppDeps) {
  return { tags: ["literature_review"], security: SIGNED_IN, middleware: [requireUser(deps)] };
}
type RouteDefaults = ReturnType<typeof routeDefaults>;

/**
 * /api/v1/literature_review (docs/product.md §7): create, history, start, status, details, delete. Every call needs a
 * signed-in user and sees only that user's reviews; only start requires a review subscription (see service.ts).
 */
export function reviewsRoutes(deps: AppDeps) {
  const app = createApi<AuthEnv>();
  const common = routeDefaults(deps);
  // Registered in this order, which is the order of the API document.
  registerCreateAndHistory(app, deps, common);
  registerStart(app, deps, common);
  registerStatusAndDetails(app, deps, common);
  registerStatusEvents(app, deps, common);
  registerDelete(app, deps, common);
  return app;
}

/** POST /create and GET /history: a new empty review, and the user's reviews. */
function registerCreateAndHistory(app: ReviewsApi, deps: AppDeps, common: RouteDefaults): void {
  const create = apiRoute({
    ...common,
    method: "post",
    path: "/create",
    summary: "Create an empty review",
    description: "The new review has status initial and no topic yet; start it with a topic.",
    responses: { 200: jsonContent(ReviewPublicSchema, "The new review") },
  });
  app.openapi(create, async (c) => c.json(await reviews.createReview(deps, c.get("user").id), 200));

  const history = apiRoute({
    ...common,
    method: "get",
    path: "/history",
    summary: "List the user's reviews, newest first",
    request: { query: historyQuerySchema },
    responses: { 200: jsonContent(ReviewsPublicSchema, "A page of reviews and the user's total") },
  });
  app.openapi(history, async (c) => {
    const { skip, limit } = c.req.valid("query");
    return c.json(await reviews.listReviews(deps, c.get("user").id, skip, limit), 200);
  });
}

/** POST /start/{lit_review_id}: gives a review its topic and queues its pipeline (needs a review subscription). */
function registerStart(app: ReviewsApi, deps: AppDeps, common: RouteDefaults): void {
  const start = apiRoute({
    ...common,
    // The subscription is checked before the topic: someone without access learns that first.
    middleware: [
      ...common.middleware,
      async (c, next) => {
        await reviews.assertReviewAccess(deps, c.get("user").id);
        await next();
      },
    ],
    method: "post",
    path: "/start/{lit_review_id}",
    summary: "Start a review on a topic",
    description:
      "Moves a review in status initial to searching and queues its pipeline: searching → sorting → summarizing → complete (or no_articles_found, error). Needs an active Plus, Pro or Max subscription.",
    request: { params: reviewIdParamSchema, query: startQuerySchema },
    responses: { 200: jsonContent(ReviewPublicSchema, "The started review"), ...errorResponses(403, 404, 409, 429) },
  });
  app.openapi(start, async (c) => {
    const { user_query, ...filters } = c.req.valid("query");
    const review = await reviews.startReview(
      deps,
      c.get("user").id,
      c.req.valid("param").lit_review_id,
      user_query,
      normalizeFilters(filters),
    );
    return c.json(review, 200);
  });
}

/** GET /status/{lit_review_id} and GET /details/{lit_review_id}: a review's status, and the review itself. */
function registerStatusAndDetails(app: ReviewsApi, deps: AppDeps, common: RouteDefaults): void {
  const status = apiRoute({
    ...common,
    method: "get",
    path: "/status/{lit_review_id}",
    summary: "Poll a review's status",
    request: { params: reviewIdParamSchema },
    responses: { 200: jsonContent(ReviewStatusSchema, "The review's status"), ...errorResponses(404) },
  });
  app.openapi(status, async (c) =>
    c.json(await reviews.reviewStatus(deps, c.get("user").id, c.req.valid("param").lit_review_id), 200),
  );

  const details = apiRoute({
    ...common,
    method: "get",
    path: "/details/{lit_review_id}",
    summary: "Read a review: summary, cited articles, a page of relevant articles",
    request: { params: reviewIdParamSchema, query: detailsQuerySchema },
    responses: { 200: jsonContent(ReviewDetailsSchema, "The review"), ...errorResponses(404) },
  });
  app.openapi(details, async (c) => {
    const { fts_skip, fts_limit } = c.req.valid("query");
    return c.json(
      await reviews.reviewDetails(deps, c.get("user").id, c.req.valid("param").lit_review_id, fts_skip, fts_limit),
      200,
    );
  });
}

/** GET /events/{lit_review_id}: a review's status as server-sent events, until a terminal status. */
function registerStatusEvents(app: ReviewsApi, deps: AppDeps, common: RouteDefaults): void {
  const events = apiRoute({
    ...common,
    method: "get",
    path: "/events/{lit_review_id}",
    summary: "Follow a review's status as server-sent events",
    description:
      "A text/event-stream of `status` events (data: the status object of GET /status/{id}), one at once and one each time the stored status changes, " +
      "until a terminal status, which is the last event. " +
      "The stream also ends after 10 minutes; clients then poll GET /status/{id} or open it again. " +
      `A user may have ${MAX_STREAMS_PER_USER} streams open at once; the next one is refused with 429.`,
    request: { params: reviewIdParamSchema },
    responses: {
      200: { description: "The event stream", content: { "text/event-stream": { schema: z.string() } } },
      ...errorResponses(404, 429),
    },
  });
  app.openapi(events, async (c) => {
    const userId = c.get("user").id;
    const id = c.req.valid("param").lit_review_id;
    // Checked before the stream opens, so an unknown or another user's review is a plain 404.
    await reviews.reviewStatus(deps, userId, id);
    // At most MAX_STREAMS_PER_USER open at once (429), so one user cannot hold thousands of them.
    const release = acquireStreamSlot(userId);
    return streamSSE(c, (stream) => streamStatus(stream, deps, userId, id, release));
  });
}

/** DELETE /delete/{lit_review_id}. */
function registerDelete(app: ReviewsApi, deps: AppDeps, common: RouteDefaults): void {
  const remove = apiRoute({
    ...common,
    method: "delete",
    path: "/delete/{lit_review_id}",
    summary: "Delete a review",
    request: { params: reviewIdParamSchema },
    responses: { 200: jsonContent(MessageSchema, "Deleted"), ...errorResponses(404) },
  });
  app.openapi(remove, async (c) => {
    await reviews.deleteReview(deps, c.get("user").id, c.req.valid("param").lit_review_id);
    return c.json({ message: reviews.REVIEW_DELETED }, 200);
  });
}

/**
 * Writes a `status` event at once and each time the review's stored status changes, keep-alive comments in between,
 * until a terminal status, the client leaving or STREAM_MAX_MS; then gives the user's stream slot back (`release`).
 */
async function streamStatus(
  stream: SSEStreamingApi,
  deps: AppDeps,
  userId: string,
  id: string,
  release: () => void,
): Promise<void> {
  // Woken by an announced change or the shared re-read (status-streams.ts); no timer of its own reads the review.
  let changed = true;
  let wake: (() => void) | null = null;
  let aborted = false;
  const watch = watchReview(
    deps.db,
    id,
    () => {
      changed = true;
      wake?.();
    },
    deps.config.REVIEW_STREAM_SWEEP_MS,
  );
  stream.onAbort(() => {
    aborted = true;
    wake?.();
  });
  const deadline = Date.now() + reviews.STREAM_MAX_MS;
  let last = "";
  try {
    while (!aborted && Date.now() < deadline) {
      if (changed) {
        changed = false;
        const status = await reviews.reviewStatus(deps, userId, id).catch(() => null);
        if (!status) break; // deleted meanwhile, or the database is unavailable: the client falls back to polling
        const key = statusKey(status);
        if (key !== last) {
          await stream.writeSSE({ event: "status", data: JSON.stringify(status) });
          last = key;
          watch.seen(key);
        }
        if (reviews.isTerminal(status.status)) break;
      } else {
        // A quiet stream: a comment line keeps proxies and the server's idle timer from closing it.
        await stream.write(": keep-alive\n\n");
      }
      if (changed || aborted) continue;
      await new Promise<void>((resolve) => {
        const quiet = Math.min(reviews.STREAM_HEARTBEAT_MS, Math.max(0, deadline - Date.now()));
        const timer = setTimeout(resolve, quiet);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    watch.close();
    release();
  }
}
