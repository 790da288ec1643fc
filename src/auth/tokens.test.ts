import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { createAccessToken, verifyAccessToken } from "./tokens.ts";

const key = new TextEncoder().encode("tokens-test-key-0123456789abcdef0123");
const otherKey = new TextEncoder().encode("another-key-0123456789abcdef01234567");

afterEach(() => setSystemTime());

describe("access tokens", () => {
  test("a token signed with the key verifies, again and again, to its claims", async () => {
    const token = await createAccessToken(key, { sub: "user-1", ver: 3 }, 60);
    const first = await verifyAccessToken(key, token);
    expect(first).toMatchObject({ sub: "user-1", ver: 3 });
    expect(first?.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await verifyAccessToken(key, token)).toEqual(first);
  });

  test("every token gets its own id, so that one can be revoked without the others", async () => {
    const a = await verifyAccessToken(key, await createAccessToken(key, { sub: "user-1", ver: 3 }, 60));
    const b = await verifyAccessToken(key, await createAccessToken(key, { sub: "user-1", ver: 3 }, 60));
    expect(a?.jti).toBeDefined();
    expect(a?.jti).not.toBe(b?.jti);
  });

  test("a token that verified once is refused once it has expired", async () => {
    const start = new Date("2030-01-01T00:00:00Z");
    setSystemTime(start);
    const token = await createAccessToken(key, { sub: "user-2", ver: 0 }, 5);
    expect(await verifyAccessToken(key, token)).toMatchObject({ sub: "user-2", ver: 0 });
    setSystemTime(new Date(start.getTime() + 4 * 60_000));
    expect(await verifyAccessToken(key, token)).not.toBeNull();
    setSystemTime(new Date(start.getTime() + 5 * 60_000 + 1));
    expect(await verifyAccessToken(key, token)).toBeNull();
  });

  test("a token that verified under one key is still refused under another", async () => {
    const token = await createAccessToken(key, { sub: "user-3", ver: 0 }, 60);
    expect(await verifyAccessToken(key, token)).not.toBeNull();
    expect(await verifyAccessToken(otherKey, token)).toBeNull();
  });

  test("a token altered after a successful check is refused", async () => {
    const token = await createAccessToken(key, { sub: "user-4", ver: 0 }, 60);
    expect(await verifyAccessToken(key, token)).not.toBeNull();
    const [header, payload, signature] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), sub: "admin" }),
    ).toString("base64url");
    expect(await verifyAccessToken(key, `${header}.${forged}.${signature}`)).toBeNull();
    expect(await verifyAccessToken(key, "not.a.jwt")).toBeNull();
  });
});
