import { SignJWT, jwtVerify, errors as joseErrors } from "jose";

/**
 * Claims of an access token: subject is the user id; `ver` is the user's token_version at issue time; `jti` the
 * token's own id (128 random bits), by which logout revokes just this token. Tokens issued before ids existed
 * have none (`jti` undefined).
 */
export interface AccessTokenClaims {
  sub: string;
  ver: number;
  jti?: string;
  /** Expiry, seconds since the epoch (read from the token; ignored when creating one). */
  exp?: number;
}

const ALGORITHM = "HS256";

/**
 * Signs an HS256 JWT access token.
 * @param expiresInMinutes lifetime in minutes
 */
export async function createAccessToken(
  key: Uint8Array,
  claims: AccessTokenClaims,
  expiresInMinutes: number,
): Promise<string> {
  return new SignJWT({ ver: claims.ver })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(claims.sub)
    .setJti(claims.jti ?? Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url"))
    .setIssuedAt()
    .setExpirationTime(`${expiresInMinutes}m`)
    .sign(key);
}

/** A token whose signature was checked: its claims and when it expires (epoch ms). */
interface VerifiedToken {
  claims: AccessTokenClaims;
  expiresAtMs: number;
}

// Tokens whose signature already checked out, per signing key. A browser sends the same token with every call of a
// page, and checking an HS256 signature costs more than the rest of a small request but the user lookup; the
// result for the same token and key cannot change, only its expiry, which is checked on every use. Only valid
// tokens are kept, at most VERIFIED_MAX per key (the oldest go first), so junk tokens cannot fill it.
const VERIFIED_MAX = 10_000;
const verifiedByKey = new WeakMap<Uint8Array, Map<string, VerifiedToken>>();

/**
 * Verifies signature, algorithm (pinned to HS256, so `alg: none` and other algorithms are refused) and expiry.
 * @returns the claims, or null for any invalid token (never throws for bad input).
 */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessTokenClaims | null> {
  let verified = verifiedByKey.get(key);
  if (!verified) {
    verified = new Map();
    verifiedByKey.set(key, verified);
  }
  const known = verified.get(token);
  if (known) {
    if (known.expiresAtMs > Date.now()) return known.claims;
    verified.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM] });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "number" || typeof payload.exp !== "number")
      return null;
    const claims: AccessTokenClaims = { sub: payload.sub, ver: payload.ver, exp: payload.exp };
    if (typeof payload.jti === "string") claims.jti = payload.jti;
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
    return claims;
  } catch (e) {
    if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
    throw e;
  }
}
