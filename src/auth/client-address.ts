import type { Context } from "hono";
import type { Config } from "../config.ts";

/**
 * Who the client is, for rate limits (docs/decisions/0012-abuse-limits.md).
 *
 * The address is the socket's, unless TRUST_PROXY says how many reverse proxies stand in front of the app: then it
 * is read from the forwarded header those proxies append to (TRUST_PROXY_HEADER), counting TRUST_PROXY entries
 * from the right, because every entry left of the ones our own proxies wrote is whatever the client chose to send.
 * Off by default: without a proxy, a forwarded header is the client's own claim.
 *
 * Limits are keyed by the client's network rather than its exact address where addresses are cheap: an IPv6 client
 * usually holds a whole /64, so it is keyed by that /64; an IPv4 address is keyed as it is.
 */

/** The client's address as the socket reports it (Bun's server is the app's env), or null in-process. */
function socketAddress(c: Context): string | null {
  const env = c.env as { requestIP?: (req: Request) => { address: string } | null } | undefined;
  try {
    return env?.requestIP?.(c.req.raw)?.address ?? null;
  } catch {
    return null;
  }
}

/** The addresses a forwarded header lists, left to right (X-Forwarded-For, RFC 7239 Forwarded, X-Real-IP). */
export function forwardedAddresses(header: string, value: string): string[] {
  if (header === "forwarded") {
    return value
      .split(",")
      .map((element) => /(?:^|;)\s*for=("?)\[?([^\]";,]+)\]?(?::\d+)?\1/i.exec(element)?.[2]?.trim() ?? "")
      .filter(Boolean);
  }
  return value
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
}

/**
 * The client's address: the socket's, or with TRUST_PROXY = n (hops), the n-th address from the right of the
 * forwarded header (the one the outermost trusted proxy saw). Falls back to the socket when the header has fewer
 * entries than trusted hops (the request did not come through the proxies).
 */
export function clientAddress(c: Context, config: Pick<Config, "TRUST_PROXY" | "TRUST_PROXY_HEADER">): string | null {
  const hops = config.TRUST_PROXY;
  if (hops > 0) {
    const value = c.req.header(config.TRUST_PROXY_HEADER);
    if (value) {
      const list = forwardedAddresses(config.TRUST_PROXY_HEADER, value);
      const picked = config.TRUST_PROXY_HEADER === "x-real-ip" ? list[0] : list[list.length - hops];
      if (picked) return picked;
    }
  }
  return socketAddress(c);
}

/** Expands an IPv6 address to its eight hextets, or returns null when it is not one. */
function ipv6Hextets(address: string): number[] | null {
  let a = address.split("%")[0]!.toLowerCase();
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two hextets.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [x, y, z, w] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((x << 8) | y).toString(16)}:${((z << 8) | w).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 0) return null;
  const parts = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const out = parts.map((p) => (/^[0-9a-f]{1,4}$/.test(p) ? Number.parseInt(p, 16) : Number.NaN));
  return out.length === 8 && out.every((n) => Number.isFinite(n)) ? out : null;
}

/**
 * The rate-limit key of a client address: an IPv4 address as it is (IPv4-mapped IPv6 addresses too), an IPv6 address
 * as its /64 ("2001:db8:1:2::/64"), anything else as given (lower-cased).
 */
export function clientKey(address: string): string {
  const hextets = address.includes(":") ? ipv6Hextets(address) : null;
  if (!hextets) return address.trim().toLowerCase();
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return [hextets[6]! >> 8, hextets[6]! & 255, hextets[7]! >> 8, hextets[7]! & 255].join(".");
  }
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(":")}::/64`;
}

/** The rate-limit key of the request's client, or null when its address is unknown (an in-process request). */
export function requestClientKey(
  c: Context,
  config: Pick<Config, "TRUST_PROXY" | "TRUST_PROXY_HEADER">,
): string | null {
  const address = clientAddress(c, config);
  return address ? clientKey(address) : null;
}
