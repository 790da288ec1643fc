import { expect, test as base, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The browser tests' `test`: every test fails on a script error or a console error in the page (a hydration
 * mismatch and a Content-Security-Policy violation both show up there). Failed HTTP answers a test provokes on
 * purpose (a wrong password) are logged by the browser too; those are not script errors and are left out.
 *
 * Unless a test sets `test.use({ consentAnswered: false })`, every page starts as if the visitor had already
 * refused cookies, so that the consent banner (tested on its own in account.e2e.ts) does not cover what a test
 * clicks. A choice the test makes itself is kept.
 */
export const test = base.extend<{ pageErrors: string[]; consentAnswered: boolean }>({
  consentAnswered: [true, { option: true }],
  page: async ({ page, consentAnswered }, use) => {
    if (consentAnswered) {
      await page.addInitScript(() => {
        try {
          if (!localStorage.getItem("cookie_consent"))
            localStorage.setItem(
              "cookie_consent",
              JSON.stringify({ choice: "refused", date: new Date().toISOString() }),
            );
        } catch {
          // about:blank and other opaque origins have no storage.
        }
      });
    }
    await use(page);
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
      page.on("console", (msg) => {
        if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource"))
          errors.push(`console: ${msg.text()}`);
      });
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until every island of the page is hydrated (islands/client.tsx sets the flag). */
export async function islandsReady(page: Page): Promise<void> {
  await page.locator("body[data-client-loaded]").waitFor({ state: "attached" });
}

/**
 * Waits until the page has painted twice more and no CSS transition runs (a fade, a slide, one waiting out its delay):
 * what is on screen then stays until something else happens. For measuring positions, or running axe on a page
 * whose toast or tooltip was moving, without a fixed sleep. Animations (a spinner may turn for ever) are left out.
 */
export async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
}

/** The password of accounts made by `signInNewUser`. */
export const TEST_PASSWORD = "correct-horse-battery-9";

/** A fresh address for a new account, unique across runs. */
export function uniqueEmail(): string {
  return `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Creates an account through the API and signs the page's browser context in, as the login form does: the API sets
 * the session cookie, and the token is kept in localStorage.
 */
export async function signInNewUser(page: Page, fullName: string): Promise<string> {
  const email = uniqueEmail();
  const password = TEST_PASSWORD;
  const signup = await page.request.post("/api/v1/users/signup", { data: { email, full_name: fullName, password } });
  expect(signup.ok()).toBe(true);
  const login = await page.request.post("/api/v1/login/access-token", { form: { username: email, password } });
  expect(login.ok()).toBe(true);
  const { access_token } = (await login.json()) as { access_token: string };
  await storeToken(page, access_token);
  return email;
}

export interface Account {
  email: string;
  name: string;
  token: string;
}

/** Creates an account through the API and returns its access token. */
export async function createAccount(page: Page, name: string): Promise<Account> {
  const request = page.request;
  const email = uniqueEmail();
  const signup = await request.post("/api/v1/users/signup", {
    data: { email, full_name: name, password: TEST_PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  const login = await request.post("/api/v1/login/access-token", {
    form: { username: email, password: TEST_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const token = ((await login.json()) as { access_token: string }).access_token;
  // The login set this browser's session cookie; API writes below authenticate with the bearer token instead.
  await page.context().clearCookies();
  return { email, name, token };
}

/**
 * Signs the page's browser in as `account` with the token its login gave: the session cookie the login would set, and
 * the stored token. No second login, so the tests stay within the login rate limit of one client address.
 */
export async function signIn(page: Page, account: Account): Promise<void> {
  const base = test.info().project.use.baseURL ?? process.env.E2E_BASE_URL!;
  await page.context().clearCookies();
  await page
    .context()
    .addCookies([{ name: "access_token", value: account.token, url: base, httpOnly: true, sameSite: "Lax" }]);
  await storeToken(page, account.token);
}

/** Keeps `token` where the login form keeps it, in the site's localStorage. */
async function storeToken(page: Page, token: string): Promise<void> {
  // Any page of the site gives its localStorage; /health is the cheapest (a line of JSON, no script, no style).
  await page.goto("/health");
  await page.evaluate((t) => localStorage.setItem("access_token", t), token);
}

/**
 * Runs axe-core on the page as it is (WCAG 2.0/2.1 A and AA rules) and fails on any violation of serious or
 * critical impact, listing each with the elements concerned.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // A toast on its way out fades over a few hundred milliseconds: measured mid-fade, its text fails the contrast rule
  // although nobody reads it. Let any leaving toast finish first (the toasts that stay are checked as they are).
  await page
    .waitForFunction(() => !document.querySelector('li[data-visible="false"]'), undefined, { timeout: 5_000 })
    .catch(() => {});
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    // Only violations are wanted: axe then skips gathering the details of every passing and inapplicable check
    // (https://github.com/dequelabs/axe-core/blob/develop/doc/API.md#options-parameter, resultTypes).
    .options({ resultTypes: ["violations"] })
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** A message the app sent, as the harness's SMTP server received it (scripts/run-e2e.mjs). */
export interface CapturedMail {
  to: string;
  subject: string;
  /** The decoded text of every text part (plain and HTML). */
  text: string;
}

/** Decodes one MIME body by its Content-Transfer-Encoding. */
function decodeBody(body: string, encoding: string): string {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    );
    return bytes.toString("utf8");
  }
  return body;
}

/** Headers (lower-cased names, folded lines joined) and body of one MIME entity. */
function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The decoded text of every text/* part of a MIME entity, multipart or not. */
function textParts(raw: string): string[] {
  const { headers, body } = splitEntity(raw);
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith("--"))
      .flatMap((part) => textParts(part.replace(/^\r?\n/, "")));
  }
  if (!/^text\//i.test(type)) return [];
  return [decodeBody(body, (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase())];
}

/**
 * Waits (up to 20 s) for a message to `to` delivered after `since` (epoch ms) and returns it decoded. The app sends
 * recovery mail after answering, so the message may arrive a moment after the page's success toast.
 */
export async function waitForMail(to: string, since: number): Promise<CapturedMail> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: run the browser tests through node scripts/run-e2e.mjs");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const name of readdirSync(dir)
      .filter((f) => f.endsWith(".eml"))
      .sort()) {
      const file = join(dir, name);
      if (statSync(file).mtimeMs < since - 1000) continue;
      const raw = readFileSync(file, "utf8");
      const { headers } = splitEntity(raw);
      if (!(headers.get("to") ?? "").toLowerCase().includes(to.toLowerCase())) continue;
      return { to, subject: headers.get("subject") ?? "", text: textParts(raw).join("\n") };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no e-mail to ${to} arrived`);
}
