import { describe, expect, test } from "bun:test";
import { loadConfig, publicUrlIsSafe } from "./config.ts";

describe("PUBLIC_URL in production", () => {
  test("a plain-HTTP public origin is refused: unsubscribe links must be HTTPS (RFC 8058)", () => {
    expect(() => loadConfig({ NODE_ENV: "production", PUBLIC_URL: "http://litreview.example.org" })).toThrow(
      /PUBLIC_URL: must be an https:\/\/ URL in production/,
    );
  });

  test("https, and http on this machine, are accepted", () => {
    for (const url of [
      "https://litreview.example.org",
      "http://localhost:3000",
      "http://127.0.0.1:8080",
      "http://[::1]:3000",
    ]) {
      expect(loadConfig({ NODE_ENV: "production", PUBLIC_URL: url }).PUBLIC_URL).toBe(url);
    }
  });

  test("outside production any http origin is allowed (development, tests)", () => {
    expect(loadConfig({ NODE_ENV: "development", PUBLIC_URL: "http://dev.internal:3000" }).PUBLIC_URL).toBe(
      "http://dev.internal:3000",
    );
  });

  test("a host that only starts like a loopback name is not loopback", () => {
    expect(publicUrlIsSafe("http://localhost.evil.example")).toBe(false);
    expect(publicUrlIsSafe("http://127.0.0.1.nip.io")).toBe(false);
    expect(publicUrlIsSafe("ftp://localhost")).toBe(false);
  });
});
