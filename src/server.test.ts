import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { resolveSecretKey } from "./auth/secret-key.ts";

// The signing key at start (issue 7, item 5): the image used to crash writing a generated key under a folder its
// user could not write. Now the server starts, or refuses with a message saying what to set.

describe("the access-token signing key", () => {
  test("SECRET_KEY is used as given", () => {
    const key = resolveSecretKey(loadConfig({ SECRET_KEY: "k".repeat(40), DATABASE_URL: "postgres://db/x" }));
    expect(new TextDecoder().decode(key)).toBe("k".repeat(40));
  });

  test("with DATABASE_URL and no SECRET_KEY the server refuses with a clear message, writing nothing", () => {
    expect(() =>
      resolveSecretKey(loadConfig({ DATABASE_URL: "postgres://db/x", DATA_DIR: "/nonexistent-dir/x" })),
    ).toThrow(
      /SECRET_KEY is not set\. With DATABASE_URL every server process must sign access tokens with the same key/,
    );
  });

  test("on the embedded default a key is generated once in DATA_DIR, private to the user, and kept across restarts", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "litreview-key-")), "data");
    const first = resolveSecretKey(loadConfig({ DATA_DIR: dir }));
    const second = resolveSecretKey(loadConfig({ DATA_DIR: dir }));
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(second).toEqual(first);
    expect(statSync(join(dir, ".secret-key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, ".secret-key"), "utf8").trim().length).toBe(64);
  });

  test("with an in-memory database the key lives in memory only: nothing is written to the working directory", () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(join(tmpdir(), "litreview-cwd-"));
    process.chdir(dir);
    try {
      const key = resolveSecretKey(loadConfig({ DATA_DIR: "memory://" }));
      expect(key.length).toBeGreaterThanOrEqual(48);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  test("a DATA_DIR where the key cannot be written gives a message naming the folder and the way out", () => {
    expect(() => resolveSecretKey(loadConfig({ DATA_DIR: "/dev/null/data" }))).toThrow(
      /cannot be kept in DATA_DIR \(\/dev\/null\/data\/\.secret-key.*Make DATA_DIR writable by this user, or set SECRET_KEY/,
    );
  });
});
