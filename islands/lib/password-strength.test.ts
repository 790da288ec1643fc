import { describe, expect, test } from "bun:test";
import { passwordScore, strengthLevel, strengthPercent, STRENGTH_MAX } from "./password-strength.ts";

describe("password strength meter (docs/product.md §5, §9)", () => {
  test("the score runs from 0 to 4", () => {
    expect(STRENGTH_MAX).toBe(4);
    for (const p of [
      "",
      "a",
      "abcdefgh",
      "Password7",
      "Tr0ub4dor&3",
      "correct horse battery staple",
      "x".repeat(500),
    ]) {
      const score = passwordScore(p);
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(4);
    }
  });

  test("levels follow the 33% and 66% thresholds of the maximum", () => {
    expect([0, 1, 2, 3, 4].map(strengthPercent)).toEqual([0, 25, 50, 75, 100]);
    expect([0, 1, 2, 3, 4].map(strengthLevel)).toEqual(["Low", "Low", "Medium", "High", "High"]);
  });

  test("an empty, common or single-character password is Low", () => {
    expect(strengthLevel(passwordScore(""))).toBe("Low");
    expect(passwordScore("password")).toBe(0);
    expect(passwordScore("PASSWORD123")).toBe(0);
    expect(passwordScore("12345678")).toBe(0);
    expect(strengthLevel(passwordScore("aaaaaaaaaaaaaaaaaaaaaaaa"))).toBe("Low");
  });

  test("eight lower-case letters are Low, a mixed password of nine is Medium", () => {
    expect(strengthLevel(passwordScore("abcdefgh"))).toBe("Low");
    expect(strengthLevel(passwordScore("Password7"))).toBe("Medium");
  });

  test("a longer password with several kinds of characters, or a passphrase, is High", () => {
    expect(strengthLevel(passwordScore("Tr0ub4dor&3"))).toBe("High");
    expect(passwordScore("correct horse battery staple")).toBe(4);
    expect(passwordScore("correct-horse-battery-9")).toBe(4);
  });

  test("adding characters never lowers the score", () => {
    let previous = 0;
    for (const p of ["c", "co", "cor", "corr3", "corr3ct", "corr3ct-h", "corr3ct-hor5e", "corr3ct-hor5e-B"]) {
      const score = passwordScore(p);
      expect(score).toBeGreaterThanOrEqual(previous);
      previous = score;
    }
  });
});
