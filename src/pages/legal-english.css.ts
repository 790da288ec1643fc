import { style } from "@vanilla-extract/css";
import { vars } from "../../islands/styles/theme.css.ts";

/** The line above a legal text that names its language and links to the other version. */
export const languageNote = style({
  maxWidth: 760,
  // Clear of the screen's edges on a phone, centred over the text where there is room.
  margin: `${vars.space.lg} ${vars.space.md} 0`,
  "@media": { "screen and (min-width: 792px)": { marginInline: "auto" } },
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.infoBg,
  color: vars.color.info,
  border: `1px solid ${vars.color.border}`,
});
