import { style } from "@vanilla-extract/css";
import { vars } from "../../islands/styles/theme.css.ts";

/** The calls to action below the plans of /pricing. */
export const pricingActions = style({ marginTop: vars.space.xl });
