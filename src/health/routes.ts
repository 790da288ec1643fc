import { z } from "@hono/zod-openapi";
import { sql } from "kysely";
import type { AppDeps } from "../deps.ts";
import type { SearchHealth } from "../../search/search-index.ts";
import { apiRoute, createApi, errorResponses, jsonContent } from "../http/openapi.ts";

const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]).openapi({
      description:
        "ok: everything answers; degraded: the pages and the API serve, but the search index does not answer (new reviews and suggestions fail until it is back)",
    }),
    search: z.enum(["ok", "unavailable"]).openapi({
      description:
        "The search index: with Elasticsearch, whether the cluster answers and the index's primary shards are allocated; with PostgreSQL full-text search, the database's own state",
    }),
  })
  .openapi("Health");

/**
 * /api/v1/health, probed by compose and load balancers (docs/decisions/0049-elasticsearch-waits-and-health.md): 503
 * while the database does not answer (the app's error handler), else 200, "degraded" while a separate search engine
 * (Elasticsearch) does not. A down cluster does not take a web replica out of service: the replicas serve every page
 * and API call from PostgreSQL and never query the index themselves (reviews and suggestions run in the workers), so
 * answering 503 would turn a search outage into a whole-site one. The reason is logged once per change of state, not
 * on every probe.
 */
export function healthRoutes(deps: AppDeps) {
  const app = createApi();
  let searchWasAvailable = true;

  const route = apiRoute({
    method: "get",
    path: "/health",
    tags: ["utils"],
    summary: "Health check",
    description:
      "200 when this process answers and its database does (compose and load balancers probe it), with status degraded while the search index (Elasticsearch, when configured) does not answer: pages and the API still serve. 503 while the database is unavailable.",
    responses: {
      200: jsonContent(HealthSchema, "Serving (ok or degraded)"),
      ...errorResponses(503),
    },
  });
  app.openapi(route, async (c) => {
    const inDatabase: SearchHealth = { available: true };
    const [, search] = await Promise.all([
      sql`SELECT 1`.execute(deps.db),
      deps.search.health ? deps.search.health() : inDatabase,
    ]);
    if (search.available !== searchWasAvailable) {
      searchWasAvailable = search.available;
      if (search.available) console.error("search index available again");
      else console.error(`search index unavailable, health degraded: ${search.reason ?? "no reason given"}`);
    }
    return c.json(
      { status: search.available ? "ok" : "degraded", search: search.available ? "ok" : "unavailable" } as const,
      200,
    );
  });
  return app;
}
