/**
 * The settings page's code that runs after its first paint: what it does with the address it was opened with (run
 * once the page has hydrated) and the requests of a password change and of a copy of the user's data (run when the
 * user acts). Not part of the first paint's JavaScript (docs/decisions/0043-first-paint-javascript.md).
 */
import { api, apiRenewingToken, detailOr, errorMessage } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import type { QueryClient } from "@tanstack/react-query";
import { SUBSCRIPTION_QUERY_KEY, checkoutFlagSet, setCheckoutFlag } from "./subscription-query.ts";
import type { ChangePasswordValues } from "../auth/rules.ts";

/**
 * PATCH /users/me/password. The API ends every other session and answers with a fresh token, which replaces the
 * stored one so this tab stays signed in, even for a request of this tab that the server refuses meanwhile for the old
 * token (`apiRenewingToken`). Shows the success toast, which dismisses the form's earlier error toasts ("Incorrect
 * password" from an earlier attempt no longer holds), or the server's message in the error toast.
 * @returns whether the password was changed.
 */
export async function changePassword(values: ChangePasswordValues): Promise<boolean> {
  try {
    await apiRenewingToken("PATCH", "/users/me/password", { body: values });
    showSuccess("Password updated successfully.", { form: "password" });
    return true;
  } catch (err) {
    showError(errorMessage(err), { form: "password" });
    return false;
  }
}

/** POST /privacy/data-export, with its toast: the server's message, or why it failed. */
export async function requestDataExport(): Promise<void> {
  try {
    showSuccess((await api("POST", "/privacy/data-export")).message);
  } catch (err) {
    showError(detailOr(err, "Could not ask for a copy of your data."));
  }
}

/**
 * What /settings does with the address it is opened with (docs/product.md §2): `subscription_checkout=success|cancel`
 * shows its toast and is then removed from the address (history.replaceState, no reload); `tab=subscription` brings
 * the subscription area (its heading, `headingId`) into view and moves focus to it. Coming back from the payment
 * provider in any way (even without the parameter, e.g. with the Back button: the flag is set) clears the
 * checkoutInProgress flag, refetches the subscription (in `client`) and calls `onCheckoutReturn`
 * (docs/product.md §4).
 */
export function handleArrival(
  headingId: string,
  client: QueryClient,
  onCheckoutReturn: (succeeded: boolean) => void,
): void {
  const url = new URL(window.location.href);
  const checkout = url.searchParams.get("subscription_checkout");
  if (checkout !== null) {
    if (checkout === "success") showSuccess("Subscription updated successfully!");
    else if (checkout === "cancel") showError("Subscription process was canceled or failed.");
    url.searchParams.delete("subscription_checkout");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }
  if (checkout !== null || checkoutFlagSet()) {
    setCheckoutFlag(false);
    void client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
    onCheckoutReturn(checkout === "success");
  }
  if (url.searchParams.get("tab") === "subscription") {
    const heading = document.getElementById(headingId);
    heading?.scrollIntoView({ block: "start" });
    heading?.focus({ preventScroll: true });
  }
}
