import { Suspense, lazy, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../lib/api.ts";
import {
  PRICES_QUERY_KEY,
  PRICES_STALE_MS,
  SUBSCRIPTION_QUERY_KEY,
  SUBSCRIPTION_STALE_MS,
  fetchPrices,
  fetchSubscription,
  isPaidPlan,
} from "./subscription-query.ts";

// The status card and plan chooser load with the subscription (docs/decisions/0043-first-paint-javascript.md).
const SubscriptionDetails = lazy(() =>
  import("./SubscriptionDetails.tsx").then((m) => ({ default: m.SubscriptionDetails })),
);

/** While a payment just made is not yet confirmed by Stripe's webhook, the subscription is re-read this often. */
const CONFIRMING_POLL_MS = 2000;

/**
 * The body of the Subscription section (./SubscriptionSection.tsx, loaded after hydration): reads the subscription
 * (cached 60 s, refetched on mount and window focus) and the prices (cached an hour), shows `loading` until the
 * subscription is in, then the status card and plan chooser, or the error.
 * @param confirmingCheckout the user just came back from a successful checkout: until the subscription reads as a
 *   paid plan (Stripe's webhook may arrive a moment after the browser), it is re-read every 2 s.
 */
export function SubscriptionStatus({
  confirmingCheckout,
  loading,
}: {
  confirmingCheckout: boolean;
  loading: ReactNode;
}) {
  const query = useQuery({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: fetchSubscription,
    staleTime: SUBSCRIPTION_STALE_MS,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (confirmingCheckout && !isPaidPlan(q.state.data) ? CONFIRMING_POLL_MS : false),
  });
  const prices = useQuery({
    queryKey: PRICES_QUERY_KEY,
    queryFn: fetchPrices,
    staleTime: PRICES_STALE_MS,
    gcTime: PRICES_STALE_MS,
    retry: 1,
  });
  return query.isPending ? (
    loading
  ) : query.isError ? (
    <p role="alert">{errorMessage(query.error)}</p>
  ) : (
    <Suspense fallback={loading}>
      <SubscriptionDetails
        sub={query.data}
        confirmingCheckout={confirmingCheckout}
        prices={prices.data}
        pricesSettled={!prices.isPending}
      />
    </Suspense>
  );
}
