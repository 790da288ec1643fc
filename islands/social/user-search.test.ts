import { describe, expect, test } from "bun:test";
import { noUsersFound, searchPlan, USER_SEARCH_TOO_SHORT } from "./user-search.ts";

describe("user search plan", () => {
  test("a blank query clears the results and makes no call", () => {
    expect(searchPlan("")).toEqual({ kind: "clear" });
    expect(searchPlan("   ")).toEqual({ kind: "clear" });
  });
  test("fewer than 3 characters is explained, not sent", () => {
    expect(searchPlan(" ab ")).toEqual({ kind: "too-short" });
    expect(USER_SEARCH_TOO_SHORT).toBe("Type at least 3 characters to search for a user.");
  });
  test("otherwise the trimmed text is searched", () => {
    expect(searchPlan("  ada l ")).toEqual({ kind: "search", q: "ada l" });
  });
  test("the product's no-result text quotes the query", () => {
    expect(noUsersFound("zed")).toBe('No users found matching "zed".');
  });
});
