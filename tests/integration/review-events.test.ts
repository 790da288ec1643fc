import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";

// The review's status pushed to the page as it is stored (issue 8, item 3): a server-sent event stream that sends
// the current status at once, each change when it is committed, and ends with the terminal status.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed", "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz");

for (const backend of BACKENDS) {
  describe(`review status events (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      await ingestFiles(t.deps, [SAMPLE]);
      user = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    /** Reads a stream's `status` events into `into` until it ends. */
    async function collect(res: Response, into: { status: string; at: number }[]): Promise<void> {
      const parser = createParser({ onEvent: (e) => e.event === "status" && into.push({ status: JSON.parse(e.data).status, at: performance.now() }) });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    }

    test("the stream sends the current status, every stored change as it happens, and ends at the terminal one", async () => {
      const { id } = (await (await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })).json()) as { id: string };
      await t.app.request(`/api/v1/literature_review/start/${id}?user_query=nasopharyngeal%20carcinoma%20radiotherapy`, { method: "POST", headers: user.headers });
      const res = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: user.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const events: { status: string; at: number }[] = [];
      const done = collect(res, events);
      await Bun.sleep(50);
      const ranAt = performance.now();
      await t.runJobs();
      const finishedAt = performance.now();
      await done;
      expect(events.map((e) => e.status)).toEqual(["searching", "sorting", "summarizing", "complete"]);
      // Pushed when stored, not at the next re-check a second later.
      expect(events.at(-1)!.at - finishedAt).toBeLessThan(500);
      expect(events[1]!.at).toBeGreaterThanOrEqual(ranAt);
    });

    test("another user's review, or an unknown one, is a plain 404 before any stream opens", async () => {
      const other = await t.signup();
      const { id } = (await (await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })).json()) as { id: string };
      const res = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: other.headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Review not found" });
    });

    test("a review already finished sends its status once and ends", async () => {
      const { id } = (await (await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })).json()) as { id: string };
      await t.db.updateTable("literature_reviews").set({ status: "complete", user_query: "x" }).where("id", "=", id).execute();
      const events: { status: string; at: number }[] = [];
      await collect(await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: user.headers }), events);
      expect(events.map((e) => e.status)).toEqual(["complete"]);
    });
  });
}
