import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

// Placeholder: filled in by its domain's work.
export function pagesRoutes(_deps: AppDeps) {
  return new Hono();
}
