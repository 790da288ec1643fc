import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { clientAddress, clientKey, forwardedAddresses } from "./client-address.ts";
import { loadConfig } from "../config.ts";

describe("client keys", () => {
  test("IPv4 addresses are keyed as they are, IPv4-mapped IPv6 as IPv4", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  test("IPv6 addresses are keyed by their /64, however they are written", () => {
    expect(clientKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0DB8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2::ffff")).toBe(clientKey("2001:db8:1:2:ffff::"));
    expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"));
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});

describe("the client's address", () => {
  async function addressOf(env: Record<string, string>, headers: Record<string, string>): Promise<string | null> {
    const config = loadConfig(env);
    const app = new Hono();
    app.get("/", (c) => c.text(String(clientAddress(c, config))));
    // In-process: no socket address; the fallback shows as "null".
    return (await app.request("/", { headers })).text().then((t) => (t === "null" ? null : t));
  }

  test("forwarded headers are ignored unless TRUST_PROXY is set", async () => {
    expect(await addressOf({}, { "x-forwarded-for": "198.51.100.1" })).toBeNull();
  });

  test("with TRUST_PROXY=n, the n-th address from the right: what the client sent on the left is not believed", async () => {
    const xff = { "x-forwarded-for": "6.6.6.6, 198.51.100.1, 10.0.0.2" };
    expect(await addressOf({ TRUST_PROXY: "1" }, xff)).toBe("10.0.0.2");
    expect(await addressOf({ TRUST_PROXY: "2" }, xff)).toBe("198.51.100.1");
    expect(await addressOf({ TRUST_PROXY: "5" }, xff)).toBeNull();
  });

  test("RFC 7239 Forwarded and X-Real-IP", async () => {
    expect(forwardedAddresses("forwarded", 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"')).toEqual([
      "192.0.2.60",
      "2001:db8:cafe::17",
    ]);
    expect(
      await addressOf(
        { TRUST_PROXY: "1", TRUST_PROXY_HEADER: "forwarded" },
        { forwarded: 'for=192.0.2.60, for="[2001:db8:cafe::17]:4711"' },
      ),
    ).toBe("2001:db8:cafe::17");
    expect(await addressOf({ TRUST_PROXY: "1", TRUST_PROXY_HEADER: "x-real-ip" }, { "x-real-ip": "192.0.2.9" })).toBe(
      "192.0.2.9",
    );
  });

  test("a bad TRUST_PROXY value stops the server with a clear message", () => {
    expect(() => loadConfig({ TRUST_PROXY: "yes please" })).toThrow(
      /TRUST_PROXY: must be "off" or a number of proxy hops/,
    );
  });
});
