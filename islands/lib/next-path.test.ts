import { describe, expect, test } from "bun:test";
import { NEXT_MAX_LENGTH, loginPathFor, safeNextPath } from "./next-path.ts";

// The login's `next` parameter only ever names a path of this site (no open redirect).

describe("safeNextPath", () => {
  const paths = ["/home", "/dashboard?tab=shares&article=12345", "/settings?tab=subscription#plans", "/", "/a/b%2Fc"];
  test.each([...paths, "/literature_management?q=a:b"])("keeps the site path %s", (path) =>
    expect(safeNextPath(path)).toBe(path),
  );

  test.each([
    ["scheme-relative", "//evil.example/home"],
    ["backslash host", "/\\evil.example"],
    ["backslash later", "/home\\..\\\\evil.example"],
    ["absolute https", "https://evil.example/home"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,hi"],
    ["relative", "home"],
    ["tab that browsers drop", "/\t/evil.example"],
    ["newline", "/\n/evil.example"],
    ["carriage return", "/home\r\nSet-Cookie: a=b"],
    ["space", "/ /evil.example"],
    ["NUL", "/home\u0000"],
    ["C1 control", "/home\u0085"],
    ["three slashes", "///evil.example"],
    ["empty", ""],
    ["too long", `/${"a".repeat(NEXT_MAX_LENGTH)}`],
  ])("refuses %s", (_name, raw) => expect(safeNextPath(raw)).toBeNull());

  test("refuses a missing value", () => {
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
  });
});

describe("loginPathFor", () => {
  test("carries a site path, encoded, and leaves / and unsafe paths out", () => {
    expect(loginPathFor("/dashboard?tab=shares&article=7")).toBe(
      "/login?next=%2Fdashboard%3Ftab%3Dshares%26article%3D7",
    );
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("//evil.example")).toBe("/login");
  });
});
