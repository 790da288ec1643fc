import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { api, ApiRequestError, TOKEN_KEY } from "./api.ts";

// The browser client keeps the session through a database outage (503) and ends it only on 401/403 (docs/product.md §8).

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
