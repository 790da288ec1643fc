/**
 * Follows a review's status as the server stores it (issue 8): GET /literature_review/events/{id} is a stream of
 * server-sent events, read with fetch (so the bearer token goes with it, which EventSource cannot send) and parsed
 * with eventsource-parser. While the stream is open the page need not poll; when it cannot open or it ends early,
 * the caller falls back to the product's 5-second polling.
 */
import { useEffect, useRef, useState } from "react";
import { getToken } from "../lib/api.ts";
import type { components } from "../lib/api-types.gen.ts";

/**
 * One `status` event: what GET /literature_review/status/{id} returns; `progress` is what the current step is doing
 * ("Fetching 143 records from PubMed…"), null when nothing.
 */
export type StatusEvent = components["schemas"]["LiteratureReviewStatus"];

/**
 * While `enabled`, keeps a status stream of review `id` open and calls `onStatus` for each event.
 * @returns whether the stream is open now (the caller polls only while it is not).
 */
export function useStatusStream(id: string, enabled: boolean, onStatus: (event: StatusEvent) => void): boolean {
  const [open, setOpen] = useState(false);
  const handler = useRef(onStatus);
  handler.current = onStatus;

  useEffect(() => {
    if (!enabled || typeof fetch !== "function" || typeof TextDecoder !== "function") return;
    const controller = new AbortController();
    void (async () => {
      try {
        const token = getToken();
        const res = await fetch(`/api/v1/literature_review/events/${encodeURIComponent(id)}`, {
          headers: { accept: "text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          credentials: "include",
          signal: controller.signal,
        });
        if (!res.ok || !res.body) return;
        setOpen(true);
        // Loaded only while a review runs: most visits show finished reviews, and the page's script budget is tight.
        const { createParser } = await import("eventsource-parser");
        const parser = createParser({
          onEvent: (e) => {
            if (e.event !== "status") return;
            try {
              handler.current(JSON.parse(e.data) as StatusEvent);
            } catch {
              // A malformed event is skipped; the next one or a poll brings the state.
            }
          },
        });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Network error or aborted: polling takes over.
      } finally {
        if (!controller.signal.aborted) setOpen(false);
      }
    })();
    return () => {
      controller.abort();
      setOpen(false);
    };
  }, [id, enabled]);

  return open;
}
