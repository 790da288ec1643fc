import { describe, expect, test } from "bun:test";
import { awaitsTopic, shouldPoll, sortNewestFirst } from "./queries.ts";

describe("review state", () => {
  test("only a review in status initial without a query asks for a topic", () => {
    expect(awaitsTopic({ status: "initial", user_query: null })).toBe(true);
    expect(awaitsTopic({ status: "initial", user_query: "  " })).toBe(true);
    expect(awaitsTopic({ status: "initial", user_query: "aspirin" })).toBe(false);
    expect(awaitsTopic({ status: "searching", user_query: null })).toBe(false);
  });

  test("a review is polled while the server works on it", () => {
    expect(shouldPoll({ status: "searching", user_query: "aspirin" })).toBe(true);
    expect(shouldPoll({ status: "sorting", user_query: "aspirin" })).toBe(true);
    expect(shouldPoll({ status: "summarizing", user_query: "aspirin" })).toBe(true);
    // Started but not yet picked up by the queue.
    expect(shouldPoll({ status: "initial", user_query: "aspirin" })).toBe(true);
  });

  test("a review is not polled while it waits for a topic, once it has ended, or before it is loaded", () => {
    expect(shouldPoll({ status: "initial", user_query: null })).toBe(false);
    for (const status of ["complete", "canceled", "error", "no_articles_found"] as const) {
      expect(shouldPoll({ status, user_query: "aspirin" })).toBe(false);
    }
    expect(shouldPoll(undefined)).toBe(false);
  });

  test("the history lists the newest review first", () => {
    const r = (id: string, created_at: string) => ({
      id,
      created_at,
      updated_at: created_at,
      status: "initial" as const,
      user_query: null,
      filters: [],
    });
    const sorted = sortNewestFirst([
      r("a", "2024-01-01T10:00:00Z"),
      r("b", "2024-03-01T10:00:00Z"),
      r("c", "2024-02-01T10:00:00Z"),
    ]);
    expect(sorted.map((x) => x.id)).toEqual(["b", "c", "a"]);
  });
});
