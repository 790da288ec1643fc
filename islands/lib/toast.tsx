/**
 * Toasts from any island (docs/product.md §8, §9): `showSuccess`, `showError`, `showInfo`, `showAction`. No page
 * needs the toast region for its first paint, so the region, its store (react-hot-toast) and its timers live in
 * ./toaster.tsx, loaded on the first toast of the page (issue 25; docs/decisions/0043-first-paint-javascript.md);
 * toasts asked for meanwhile show, in order, once it has loaded.
 */
import type { ToastRequest } from "./toast-request.ts";

/** Options of a toast: the form it reports on (see ToastRequest). */
export interface ToastOptions {
  form?: string;
}

// The region's `present` once loaded; one load per page, started by the first toast.
let region: Promise<(request: ToastRequest) => void> | null = null;

function show(request: ToastRequest): void {
  region ??= import("./toaster.tsx").then((m) => m.mountToaster());
  region.then(
    (present) => present(request),
    (err: unknown) => {
      // The chunk could not load (offline, a deploy in between): say so in the console, try again next time.
      region = null;
      console.error("toasts failed to load:", err, request.message);
    },
  );
}

/**
 * Shows a success toast titled 'Success!' with `message`. The same message shown again replaces the toast
 * on screen instead of stacking a copy. With `opts.form`, the toasts that form showed before (its errors) go.
 */
export function showSuccess(message: string, opts: ToastOptions = {}): void {
  show({ kind: "success", message, form: opts.form });
}

/**
 * Shows an error toast titled 'Something went wrong!' with `message`. Repeats of the same message replace
 * the one on screen, so a failure that happens twice does not fill the corner.
 */
export function showError(message: string, opts: ToastOptions = {}): void {
  show({ kind: "error", message, form: opts.form });
}

/**
 * Shows a neutral notice without a title, for outcomes that are neither a success nor a failure
 * ('No changes detected.').
 */
export function showInfo(message: string, opts: ToastOptions = {}): void {
  show({ kind: "info", message, form: opts.form });
}

/**
 * Shows a neutral notice with one button ('Removed from your likes.' with 'Undo'): pressing it runs `action.run` and
 * closes the toast. The same message shown again replaces the toast and its action.
 */
export function showAction(message: string, action: { label: string; run: () => void }): void {
  show({ kind: "info", message, action });
}
