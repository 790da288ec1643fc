import { SignJWT, jwtVerify, errors as joseErrors } from "jose";

/** Claims of an access token: subject is the user id; `ver` is the user's token_version at issue time. */
export interface AccessTokenClaims {
  sub: string;
  ver: number;
}

const ALGORITHM = "HS256";

/**
 * Signs an HS256 JWT access token.
 * @param expiresInMinutes lifetime in minutes
 */
export async function createAccessToken(key: Uint8Array, claims: AccessTokenClaims, expiresInMinutes: number): Promise<string> {
  return new SignJWT({ ver: claims.ver })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${expiresInMinutes}m`)
    .sign(key);
}

/**
 * Verifies signature, algorithm (pinned to HS256, so `alg: none` and other algorithms are refused) and expiry.
 * @returns the claims, or null for any invalid token (never throws for bad input).
 */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM] });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "number") return null;
    return { sub: payload.sub, ver: payload.ver };
  } catch (e) {
    if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
    throw e;
  }
}
