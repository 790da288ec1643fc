import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { api, ApiRequestError, apiRenewingToken, TOKEN_KEY } from "./api.ts";

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

describe("a password change in flight (apiRenewingToken)", () => {
  /**
   * A server that revokes "old" as soon as the password change arrives and answers the change only when `release` is
   * called: /users/me answers 401 to the old token and 200 to the new one.
   */
  function revokingServer() {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let revoked = false;
    const seen: string[] = [];
    globalThis.fetch = (async (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const auth = new Headers(init?.headers).get("authorization") ?? "";
      seen.push(`${init?.method} ${url.pathname} ${auth}`);
      if (url.pathname === "/api/v1/users/me/password") {
        revoked = true;
        await released;
        return Response.json({ message: "Password updated successfully", access_token: "new", token_type: "bearer" });
      }
      if (auth === "Bearer old" && revoked)
        return Response.json({ detail: "Could not validate credentials" }, { status: 401 });
      return Response.json({ email: "a@example.com" });
    }) as unknown as typeof fetch;
    return { release, seen };
  }

  test("refused for the old token: waits for the new one and is sent again, with no logout", async () => {
    store.set(TOKEN_KEY, "old");
    const server = revokingServer();
    const change = apiRenewingToken("PATCH", "/users/me/password", {
      body: { current_password: "a", new_password: "b", confirm_password: "b" },
    });
    await Bun.sleep(0);
    const me = api("GET", "/users/me");
    await Bun.sleep(5);
    server.release();
    expect((await change).access_token).toBe("new");
    expect(await me).toEqual({ email: "a@example.com" } as never);
    expect(store.get(TOKEN_KEY)).toBe("new");
    expect(navigatedTo).toBeNull();
    expect(server.seen.filter((line) => line.startsWith("GET"))).toEqual([
      "GET /api/v1/users/me Bearer old",
      "GET /api/v1/users/me Bearer new",
    ]);
  });

  test("a refusal that arrives after the new token is stored is sent again once with it", async () => {
    store.set(TOKEN_KEY, "old");
    let calls = 0;
    globalThis.fetch = (async (_input: string | URL, init?: RequestInit) => {
      calls++;
      const auth = new Headers(init?.headers).get("authorization");
      // The token changes while the first request is on its way (another part of the page stored the new one).
      if (calls === 1) {
        store.set(TOKEN_KEY, "new");
        return Response.json({ detail: "Could not validate credentials" }, { status: 401 });
      }
      return Response.json({ token: auth });
    }) as unknown as typeof fetch;
    expect(await api("GET", "/users/me")).toEqual({ token: "Bearer new" } as never);
    expect(calls).toBe(2);
    expect(navigatedTo).toBeNull();
  });

  test("a failed change keeps the stored token", async () => {
    store.set(TOKEN_KEY, "old");
    answer(400, { detail: "Incorrect password" });
    const err = await apiRenewingToken("PATCH", "/users/me/password", {
      body: { current_password: "a", new_password: "b", confirm_password: "b" },
    }).catch((e: unknown) => e);
    expect((err as ApiRequestError).status).toBe(400);
    expect(store.get(TOKEN_KEY)).toBe("old");
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
