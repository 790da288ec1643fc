import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// The password strength meter (islands/lib/StrengthMeter.tsx).

export const strength = style({
  display: "grid",
  gap: vars.space.xs,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

export const meter = style({ width: "100%", height: 8 });
