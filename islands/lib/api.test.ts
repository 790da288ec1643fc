import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { api, ApiRequestError, TOKEN_KEY } from "./api.ts";

// The browser client keeps the session through a database outage (503) and ends it only on 401/403 (docs/product.md
// §8).

const store = new Map<string, string>();
let navigatedTo: string | null = null;
const realFetch = globalThis.fetch;
const had = { window: "window" in globalThis, localStorage: "localStorage" in globalThis };
const saved = {
  window: (globalThis as Record<string, unknown>).window,
  localStorage: (globalThis as Record<string, unknown>).localStorage,
};

beforeEach(() => {
  store.clear();
  navigatedTo = null;
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    },
    window: {
      location: {
        origin: "http://localhost",
        pathname: "/settings",
        search: "?tab=subscription",
        assign: (u: string) => (navigatedTo = u),
      },
    },
  });
});
afterEach(() => {
  globalThis.fetch = realFetch;
  // Leave the globals as other test files expect them.
  for (const k of ["window", "localStorage"] as const) {
    if (had[k]) Object.assign(globalThis, { [k]: saved[k] });
    else delete (globalThis as Record<string, unknown>)[k];
  }
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  globalThis.fetch = (async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...headers },
    })) as unknown as typeof fetch;
}

describe("api()", () => {
  test("a 503 is an error carrying the server's detail, and the token stays", async () => {
    store.set(TOKEN_KEY, "the-token");
    answer(
      503,
      { detail: "The service is temporarily unavailable. Please try again in a few seconds." },
      { "retry-after": "5" },
    );
    const err = await api("GET", "/users/me").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).status).toBe(503);
    expect((err as ApiRequestError).detail).toContain("temporarily unavailable");
    await Bun.sleep(0);
    expect(store.get(TOKEN_KEY)).toBe("the-token");
    expect(navigatedTo).toBeNull();
  });

  test("a 401 removes the token and goes to /login, with the page it happened on as next", async () => {
    store.set(TOKEN_KEY, "the-token");
    answer(401, { detail: "Could not validate credentials" });
    await api("GET", "/users/me").catch(() => {});
    await Bun.sleep(0);
    await Bun.sleep(0);
    expect(store.has(TOKEN_KEY)).toBe(false);
    expect(navigatedTo).toBe("/login?next=%2Fsettings%3Ftab%3Dsubscription");
  });
});

describe("api() by the document's paths", () => {
  function capture(body: unknown = null) {
    const seen: { url: string; method: string; body: unknown }[] = [];
    globalThis.fetch = (async (url: URL, init: RequestInit) => {
      seen.push({ url: String(url), method: String(init.method), body: init.body });
      return new Response(body === null ? "" : JSON.stringify(body), { status: 200 });
    }) as unknown as typeof fetch;
    return seen;
  }

  test("fills the path's parameters, URI-encoded, and leaves out empty query values", async () => {
    const seen = capture();
    await api("DELETE", "/shares/received/{share_id}", { path: { share_id: "a/b c" } });
    await api("GET", "/likes/my", { query: { limit: 20, after: undefined } });
    await api("POST", "/likes/{article_pmid}", { path: { article_pmid: 12345678 } });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "DELETE http://localhost/api/v1/shares/received/a%2Fb%20c",
      "GET http://localhost/api/v1/likes/my?limit=20",
      "POST http://localhost/api/v1/likes/12345678",
    ]);
  });

  test("sends a JSON body and answers the parsed body; an empty answer is null", async () => {
    const seen = capture({ share_emails: false });
    const setting = await api("PUT", "/shares/email-setting", { body: { share_emails: false } });
    expect(setting.share_emails).toBe(false);
    expect(seen[0]!.body).toBe('{"share_emails":false}');
    capture();
    expect(await api("POST", "/likes/{article_pmid}", { path: { article_pmid: 1 } })).toBeNull();
  });

  test("calls that disagree with the server's document do not compile", () => {
    // Never run: tsc (npm run typecheck) checks each line marked below is an error.
    const typeChecks = async () => {
      // @ts-expect-error a PMID is an integer on the server
      await api("POST", "/likes/{article_pmid}", { path: { article_pmid: "1" } });
      // @ts-expect-error the path's parameter is required
      await api("DELETE", "/shares/received/{share_id}");
      // @ts-expect-error no such path
      await api("GET", "/likes/mine");
      // @ts-expect-error GET /users/me takes no body
      await api("GET", "/users/me", { body: {} });
      const sub = await api("GET", "/subscriptions/me");
      // @ts-expect-error the status is the server's enum, not any text
      sub.status === "paused";
      const pmids: number[] = await api("GET", "/likes/my/pmids");
      return pmids;
    };
    expect(typeof typeChecks).toBe("function");
  });
});
