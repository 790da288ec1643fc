import { useEffect, useState } from "react";
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useHydrated } from "../auth/form.tsx";
import { ME_QUERY_KEY, fetchMe, type CurrentUserData } from "../lib/current-user.ts";
import { ProfileSection } from "./ProfileSection.tsx";
import { PasswordSection } from "./PasswordSection.tsx";
import { InterestsSection } from "./InterestsSection.tsx";
import { SUBSCRIPTION_HEADING_ID, SubscriptionSection } from "./SubscriptionSection.tsx";
import { DangerZone } from "./DangerZone.tsx";
import { DigestSection } from "./DigestSection.tsx";
import { ShareEmailSection } from "./ShareEmailSection.tsx";
import { YourDataSection } from "./YourDataSection.tsx";
import * as s from "./settings.css.ts";

/** How long after a successful checkout the page keeps re-reading the subscription for Stripe's confirmation. */
const CONFIRMING_FOR_MS = 30_000;

/**
 * Reads the search parameters /settings is opened with (docs/product.md §2), and the checkoutInProgress flag:
 * the checkout's toast, `tab=subscription`'s scroll and focus, and the refetch of the subscription after a return
 * from the payment provider (./on-demand.ts, handleArrival).
 */
function useArrivalParameters(client: QueryClient, onCheckoutReturn: (succeeded: boolean) => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    // After hydration, like the layout's data loads: the first paint does not need it (./on-demand.ts).
    void import("./on-demand.ts").then((m) => m.handleArrival(SUBSCRIPTION_HEADING_ID, client, onCheckoutReturn));
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
  useArrivalParameters(queryClient, (succeeded) => {
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
          <SubscriptionSection confirmingCheckout={confirmingCheckout} hydrated={hydrated} />
          <DigestSection hydrated={hydrated} />
          <YourDataSection hydrated={hydrated} />
          <DangerZone hydrated={hydrated} />
        </>
      )}
      {serverUser.is_superuser ? <YourDataSection hydrated={hydrated} /> : null}
    </div>
  );
}
