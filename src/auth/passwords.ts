/**
 * Password hashing: argon2id through Bun.password with the OWASP minimum parameters
 * (19 MiB of memory, 2 iterations, 1 lane). The parameters are stored inside each hash,
 * so raising them later still verifies the older hashes.
 */

const ARGON2_OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

/** Hashes a password with argon2id; the result is a self-describing PHC string (`$argon2id$v=19$m=…`). */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2_OPTIONS);
}

/**
 * Checks a password against a stored hash.
 * @returns false for a wrong password and for a hash that cannot be parsed (never throws for bad input).
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/**
 * A hash of a random, discarded password, made with ARGON2_OPTIONS. Verifying against it costs the same as
 * verifying a real password. Kept as a constant so that even the first unknown-user login of a process is not
 * faster (hashing it lazily would add a one-time delay). Regenerate it if ARGON2_OPTIONS change.
 */
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$6fhDS7VV+y9jauEyaNcVn6jzkc2ZtlMwfN/d4ySnVKg$i8gOraKWH+ezYf1SMKIR4LxhExW4YMK0Yk0AEDYqpXI";

/**
 * Verifies `password` against `hash`, or, when there is no hash (unknown account), against a dummy hash
 * with the same parameters, so that "no such user" takes as long as "wrong password" and login timing
 * does not reveal which addresses have accounts.
 * @returns true only when a real hash was given and matches.
 */
export async function verifyPasswordTimingSafe(password: string, hash: string | null | undefined): Promise<boolean> {
  if (hash) return verifyPassword(password, hash);
  await verifyPassword(password, DUMMY_HASH);
  return false;
}
