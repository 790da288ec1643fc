import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useHydrated } from "../auth/form.tsx";
import { ME_QUERY_KEY, fetchMe, type CurrentUserData } from "../lib/current-user.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import { ProfileSection } from "./ProfileSection.tsx";
import { PasswordSection } from "./PasswordSection.tsx";
import { InterestsSection } from "./InterestsSection.tsx";
import { SUBSCRIPTION_HEADING_ID, SubscriptionSection } from "./SubscriptionSection.tsx";
import { SUBSCRIPTION_QUERY_KEY, checkoutFlagSet, setCheckoutFlag } from "./subscription.ts";
import { DangerZone } from "./DangerZone.tsx";
import { DigestSection } from "./DigestSection.tsx";
import { ShareEmailSection } from "./ShareEmailSection.tsx";
import { YourDataSection } from "./YourDataSection.tsx";
import * as s from "./settings.css.ts";

/** How long after a successful checkout the page keeps re-reading the subscription for Stripe's confirmation. */
const CONFIRMING_FOR_MS = 30_000;

/**
 * Reads the search parameters /settings is opened with (docs/product.md §2): `subscription_checkout=success|cancel` shows its
 * toast and is then removed from the address (history.replaceState, no reload); `tab=subscription` brings the
 * subscription area into view and moves focus to its heading. Coming back from the payment provider in any way
 * (even without the parameter, e.g. with the Back button) clears the checkoutInProgress flag and refetches the
 * subscription (docs/product.md §4).
 */
function useArrivalParameters(onCheckoutReturn: (succeeded: boolean) => void): void {
  useEffect(() => {
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
      onCheckoutReturn(checkout === "success");
    }
    if (url.searchParams.get("tab") === "subscription") {
      const heading = document.getElementById(SUBSCRIPTION_HEADING_ID);
      heading?.scrollIntoView({ block: "start" });
      heading?.focus({ preventScroll: true });
    }
    // Runs once, on arrival.
  }, []);
}

/**
 * The 'User' tab of /settings (docs/product.md §2): My Profile, Password, Main Interests, and for regular users the
 * Subscription area and the Danger Zone (both hidden for superusers). `user` is the server's copy of the signed-in
 * user; it seeds the shared current-user query, which later edits refresh.
 */
export function SettingsPanel({ user: serverUser }: { user: CurrentUserData }) {
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const { data: user } = useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: fetchMe,
    initialData: serverUser,
    staleTime: Infinity,
  });
  const [confirmingCheckout, setConfirmingCheckout] = useState(false);
  useArrivalParameters((succeeded) => {
    void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
    if (succeeded) setConfirmingCheckout(true);
  });
  useEffect(() => {
    if (!confirmingCheckout) return;
    const stop = setTimeout(() => setConfirmingCheckout(false), CONFIRMING_FOR_MS);
    return () => clearTimeout(stop);
  }, [confirmingCheckout]);

  return (
    <div className={s.stack}>
      <ProfileSection user={user} hydrated={hydrated} />
      <PasswordSection hydrated={hydrated} />
      <InterestsSection user={user} hydrated={hydrated} />
      <ShareEmailSection hydrated={hydrated} />
      {serverUser.is_superuser ? null : (
        <>
          <SubscriptionSection confirmingCheckout={confirmingCheckout} />
          <DigestSection hydrated={hydrated} />
          <YourDataSection hydrated={hydrated} />
          <DangerZone hydrated={hydrated} />
        </>
      )}
      {serverUser.is_superuser ? <YourDataSection hydrated={hydrated} /> : null}
    </div>
  );
}
