/**
 * The password strength meter's score (docs/product.md §5, §9): a whole number from 0 to STRENGTH_MAX (4), shown as a
 * percentage of the maximum and a level: under 33% Low, under 66% Medium, otherwise High.
 *
 * The score estimates how hard the password is to guess, in bits: its length (runs of one repeated character
 * count once) times log2 of the alphabet it draws from (lower case 26, upper case 26, digits 10, anything else
 * 33). A very common password scores 0 whatever its alphabet. Thresholds: under 28 bits 0, under 40 bits 1,
 * under 60 bits 2, under 80 bits 3, else 4; so "abcdefgh" is Low, "Password7" Medium and a long passphrase High.
 * Pure and small on purpose: a dictionary-based estimator weighs hundreds of kilobytes.
 */

/** The highest score. */
export const STRENGTH_MAX = 4;

/** The meter's levels. */
export type StrengthLevel = "Low" | "Medium" | "High";

// Passwords every guessing list starts with; they score 0 however they are typed (case is ignored).
const COMMON = new Set([
  "password",
  "password1",
  "password12",
  "password123",
  "passw0rd",
  "12345678",
  "123456789",
  "1234567890",
  "87654321",
  "11111111",
  "00000000",
  "qwertyuiop",
  "qwerty123",
  "azertyuiop",
  "azerty123",
  "motdepasse",
  "iloveyou",
  "letmein1",
  "welcome1",
  "abc12345",
  "abcd1234",
  "admin123",
  "sunshine",
  "football",
  "baseball",
  "princess",
]);

const BIT_THRESHOLDS = [28, 40, 60, 80];

/** The estimated guessing difficulty of `password` in bits (see the module comment). */
export function passwordBits(password: string): number {
  if (password === "") return 0;
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^a-zA-Z0-9]/.test(password)) pool += 33;
  const chars = [...password];
  const length = chars.filter((ch, i) => i === 0 || ch !== chars[i - 1]).length;
  return length * Math.log2(pool);
}

/** The meter's score of `password`, from 0 to STRENGTH_MAX. */
export function passwordScore(password: string): number {
  if (password === "" || COMMON.has(password.toLowerCase())) return 0;
  const bits = passwordBits(password);
  const score = BIT_THRESHOLDS.filter((t) => bits >= t).length;
  return Math.min(STRENGTH_MAX, score);
}

/** `score` as a percentage of STRENGTH_MAX. */
export function strengthPercent(score: number): number {
  return (Math.max(0, Math.min(STRENGTH_MAX, score)) / STRENGTH_MAX) * 100;
}

/** The level of a score: under 33% Low, under 66% Medium, otherwise High. */
export function strengthLevel(score: number): StrengthLevel {
  const percent = strengthPercent(score);
  if (percent < 33) return "Low";
  if (percent < 66) return "Medium";
  return "High";
}
