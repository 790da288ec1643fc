import { passwordScore, strengthLevel, STRENGTH_MAX } from "./password-strength.ts";
import * as s from "./strength.css.ts";

// The meter's own low and high marks sit at 33% and 66% of the maximum, so the browser colours it like the level.
const LOW_MARK = STRENGTH_MAX * 0.33;
const HIGH_MARK = STRENGTH_MAX * 0.66;

/**
 * The password strength meter (docs/product.md §5): a native <meter> of the score out of 4 and its level in words,
 * e.g. "Password strength: Medium (2/4)". Renders nothing for an empty password.
 */
export function StrengthMeter({ password }: { password: string }) {
  if (password === "") return null;
  const score = passwordScore(password);
  const level = strengthLevel(score);
  return (
    <div className={s.strength} data-testid="password-strength" data-level={level}>
      <meter
        className={s.meter}
        min={0}
        max={STRENGTH_MAX}
        low={LOW_MARK}
        high={HIGH_MARK}
        optimum={STRENGTH_MAX}
        value={score}
        aria-label="Password strength"
      />
      <span aria-live="polite">{`Password strength: ${level} (${score}/${STRENGTH_MAX})`}</span>
    </div>
  );
}
