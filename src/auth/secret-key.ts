import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, SECRET_KEY_REQUIRED_MESSAGE } from "../config.ts";

/**
 * The token signing key (HS256 access tokens, unsubscribe links, invitation hashes): SECRET_KEY when set. Otherwise,
 * on the embedded default (no DATABASE_URL), a random key kept in DATA_DIR beside the database, so that sessions
 * survive restarts. With DATABASE_URL a process without SECRET_KEY is refused: loadConfig does it for the server and
 * workers (the rule "shared-secret-key", src/config.ts); this throws the same message for a caller that loaded its
 * configuration under another role.
 * @returns the key's bytes (48 random bytes, base64url, when generated).
 * @throws Error with a message saying what to set or fix.
 */
export function resolveSecretKey(config: Config): Uint8Array {
  if (config.SECRET_KEY) return new TextEncoder().encode(config.SECRET_KEY);
  if (config.DATABASE_URL) throw new Error(SECRET_KEY_REQUIRED_MESSAGE);
  // An in-memory database ends with the process, and so may its sessions: the key is not written anywhere (else a
  // directory named "memory:" would appear in the working directory).
  if (config.DATA_DIR.startsWith("memory://")) return new TextEncoder().encode(randomBytes(48).toString("base64url"));
  const file = join(config.DATA_DIR, ".secret-key");
  try {
    if (!existsSync(file)) {
      mkdirSync(config.DATA_DIR, { recursive: true });
      writeFileSync(file, randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" });
    }
    return new TextEncoder().encode(readFileSync(file, "utf8").trim());
  } catch (err) {
    throw new Error(
      `SECRET_KEY is not set and the generated key cannot be kept in DATA_DIR (${file}: ${err instanceof Error ? err.message : err}). Make DATA_DIR writable by this user, or set SECRET_KEY to a random value of at least 32 characters.`,
    );
  }
}
