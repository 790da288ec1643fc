import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_BACKENDS } from "../support/database.ts";
import { decodeQuotedPrintable, startSmtpServer } from "../support/smtp.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { EmailDeliveryError, sendEmail } from "../../src/email/service.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";

/** A local port with nothing listening on it (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const MESSAGE = {
  to: "reader@example.com",
  subject: "Weekly digest",
  html: "<p>Hello <b>reader</b></p>",
  text: "Hello reader",
};

for (const backend of APP_BACKENDS) {
  describe(`e-mail over SMTP (${backend})`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let t: TestApp;
    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(backend, { env: { SMTP_URL: smtp.url } });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    test("a message is delivered to the SMTP server and recorded without its body", async () => {
      const result = await sendEmail(t.deps, MESSAGE);
      expect(result.status).toBe("sent");
      const got = smtp.received.at(-1)!;
      expect(got.to).toEqual(["reader@example.com"]);
      expect(got.from).toBe("support@litreview.test");
      expect(got.raw).toContain("Subject: Weekly digest");
      expect(got.raw).toContain("Hello reader");
      expect(got.raw).toContain("text/html");

      const row = await t.db
        .selectFrom("email_outbox")
        .selectAll()
        .where("id", "=", result.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        to: "reader@example.com",
        subject: "Weekly digest",
        status: "sent",
        html: null,
        text: null,
        error: null,
      });
      expect(row.sent_at).not.toBeNull();
    });

    test("password recovery mails a link that resets the password", async () => {
      const u = await t.signup();
      const res = await t.app.request(`/api/v1/password-recovery/${u.user.email}`, { method: "POST" });
      expect(res.status).toBe(200);
      await t.runJobs();
      const mail = smtp.received.find((m) => m.to.includes(u.user.email));
      expect(mail).toBeDefined();
      const token = decodeQuotedPrintable(mail!.raw).match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
      expect(token).toBeString();

      const reset = await t.app.request("/api/v1/reset-password/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, new_password: "from-the-mail" }),
      });
      expect(reset.status).toBe(200);
      const login = await t.app.request("/api/v1/login/access-token", {
        method: "POST",
        body: new URLSearchParams({ username: u.user.email, password: "from-the-mail" }),
      });
      expect(login.status).toBe(200);
    });
  });

  describe(`e-mail without SMTP (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    test("a message is stored in the outbox with its body", async () => {
      const result = await sendEmail(t.deps, MESSAGE);
      expect(result.status).toBe("stored");
      const row = await t.db
        .selectFrom("email_outbox")
        .selectAll()
        .where("id", "=", result.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ ...MESSAGE, status: "stored", sent_at: null, error: null });
    });
  });

  describe(`e-mail when the SMTP server is unreachable (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend, { env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
    });
    afterAll(async () => {
      await t?.close();
    });

    test("sending fails with an error and the message is kept as failed", async () => {
      const error = await sendEmail(t.deps, MESSAGE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmailDeliveryError);
      const row = await t.db
        .selectFrom("email_outbox")
        .selectAll()
        .where("id", "=", (error as EmailDeliveryError).outboxId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "failed", html: MESSAGE.html, text: MESSAGE.text, sent_at: null });
      expect(row.error).toBeString();
    });

    test("password recovery still answers the same when the mail cannot go out", async () => {
      const u = await t.signup();
      const errors: unknown[] = [];
      const originalError = console.error;
      console.error = (...args: unknown[]) => void errors.push(args);
      try {
        const res = await t.app.request(`/api/v1/password-recovery/${u.user.email}`, { method: "POST" });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ message: "Password recovery email sent" });
        await t.runJobs();
      } finally {
        console.error = originalError;
      }
      // The failure is logged for the operator, and the message kept for a retry.
      expect(errors).toHaveLength(1);
      const rows = await t.db.selectFrom("email_outbox").select("status").where("to", "=", u.user.email).execute();
      expect(rows).toEqual([{ status: "failed" }]);
    });
  });
}

describe("outbox command", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "litreview-outbox-"));
    const handle = openDatabase({ dataDir: dir });
    await migrateToLatest(handle.db);
    await handle.db
      .insertInto("email_outbox")
      .values({ ...MESSAGE, text: "Reset here: http://localhost:3000/reset-password?token=abc", status: "stored" })
      .execute();
    await handle.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("prints the stored messages with their text", async () => {
    // Without DATABASE_URL the command reads the PGlite folder of DATA_DIR.
    const { DATABASE_URL: _unused, ...env } = process.env;
    const proc = Bun.spawn([process.execPath, "scripts/outbox.ts", "--limit", "5"], {
      cwd: join(import.meta.dir, "..", ".."),
      env: { ...env, DATA_DIR: dir, LOG_LEVEL: "silent" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("STORED");
    expect(out).toContain("To:      reader@example.com");
    expect(out).toContain("Subject: Weekly digest");
    expect(out).toContain("Reset here: http://localhost:3000/reset-password?token=abc");
  });
});
