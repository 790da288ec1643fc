import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { EMBEDDED_LOCK_FILE, claimEmbeddedLock, embeddedHolder, isEmbeddedAbort } from "../../src/db/embedded-lock.ts";

// `npm run outbox` (scripts/outbox.ts) against an embedded database: while the server holds the data folder it says
// so and what to do, without opening it (a second PGlite process dies with a bare "Aborted()"); once the server is
// gone, even after a crash that left its record behind, it reads the outbox.

const ROOT = resolve(import.meta.dir, "../..");
let dataDir: string;

async function outbox(env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  // The embedded database: no DATABASE_URL, whatever the environment running the tests has.
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const proc = Bun.spawn(["bun", "scripts/outbox.ts"], {
    cwd: ROOT,
    env: { ...inherited, DATA_DIR: dataDir, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out, err };
}

/** A process that runs until killed, standing in for the server. */
function holder() {
  return Bun.spawn(["sleep", "60"], { stdout: "ignore", stderr: "ignore" });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "outbox-cli-"));
  const handle = openDatabase({ dataDir, poolSize: 1 });
  await migrateToLatest(handle.db);
  const message = { to: "ada@example.com", subject: "Reset your password", text: "Open the link", html: null };
  await handle.db
    .insertInto("email_outbox")
    .values({ ...message, status: "stored" })
    .execute();
  await handle.close();
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run outbox on the embedded database", () => {
  test("while the server runs, it says the folder is in use and how to read the mail, opening nothing", async () => {
    const server = holder();
    try {
      claimEmbeddedLock(dataDir, server.pid);
      const { code, out, err } = await outbox();
      expect(code).toBe(1);
      expect(err).toContain(`cannot read the outbox: the embedded database in ${dataDir} is open in the server`);
      expect(err).toContain(`(process ${server.pid})`);
      expect(err).toContain("stop the server and run this again");
      expect(err).toContain("LOG_LEVEL=info");
      expect(err).not.toContain("Aborted()");
      expect(out).toBe("");
    } finally {
      server.kill();
      await server.exited;
    }
  });

  test("once the server is gone (its stale record left behind), it reads the outbox", async () => {
    expect(existsSync(join(dataDir, EMBEDDED_LOCK_FILE))).toBe(true);
    const { code, out, err } = await outbox();
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("To:      ada@example.com");
    expect(out).toContain("Subject: Reset your password");
    expect(out).toContain("Open the link");
  });
});

describe("the server's record of the embedded database", () => {
  test("names a live holder, ignores a dead one and this process, and only its holder removes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embedded-lock-"));
    try {
      expect(embeddedHolder(dir)).toBeNull();
      const release = claimEmbeddedLock(dir);
      // This process's own record does not stop it.
      expect(embeddedHolder(dir)).toBeNull();
      expect(embeddedHolder(dir, () => true)).toBeNull();
      writeFileSync(join(dir, EMBEDDED_LOCK_FILE), "4242\n");
      expect(embeddedHolder(dir, (pid) => pid === 4242)).toBe(4242);
      expect(embeddedHolder(dir, () => false)).toBeNull();
      // Another process's record stays when this one releases.
      release();
      expect(existsSync(join(dir, EMBEDDED_LOCK_FILE))).toBe(true);
      const mine = claimEmbeddedLock(dir);
      mine();
      expect(existsSync(join(dir, EMBEDDED_LOCK_FILE))).toBe(false);
      writeFileSync(join(dir, EMBEDDED_LOCK_FILE), "not a pid\n");
      expect(embeddedHolder(dir, () => true)).toBeNull();
      expect(embeddedHolder("memory://", () => true)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("PGlite's abort is recognised, other errors are not", () => {
    expect(isEmbeddedAbort(new Error("Aborted(). Build with -sASSERTIONS for more info."))).toBe(true);
    expect(isEmbeddedAbort(new Error('relation "email_outbox" does not exist'))).toBe(false);
    // The embedded driver's wrapping of an engine's stop keeps the abort as its cause.
    const stopped = new Error("stopped", { cause: new Error("Aborted(). Build with -sASSERTIONS for more info.") });
    expect(isEmbeddedAbort(stopped)).toBe(true);
  });
});
