import { useEffect, type ReactNode } from "react";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";

/**
 * The wrapper of every island, the same on the server (per-request QueryClient) and in the browser (the one shared
 * QueryClient), so that the hydrated tree matches the server HTML. `onHydrated` fires once the island has committed
 * in the browser; effects never run on the server. Islands that never use the query cache are hydrated in
 * islands/client.tsx's QueryFreeRoot instead: a context provider renders no markup and takes no `useId` step, so the
 * HTML and ids match all the same.
 */
export function IslandRoot({
  client,
  onHydrated,
  children,
}: {
  client: QueryClient;
  onHydrated?: () => void;
  children: ReactNode;
}) {
  useEffect(() => {
    onHydrated?.();
  }, [onHydrated]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
