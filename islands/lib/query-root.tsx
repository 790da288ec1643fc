/**
 * The browser's one query cache (docs/decisions/0043-first-paint-javascript.md): the QueryClient every island of a
 * page shares, and what puts the server's dehydrated state into it. Its own module, so that only pages whose islands
 * use the cache load @tanstack/react-query (islands/client.tsx imports this on demand; islands that render with the
 * cache, and the lazy parts that use it, import it or react-query themselves).
 */
import { QueryClient, QueryClientProvider, hydrate, type DehydratedState } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiRequestError, onSessionEnd } from "./api.ts";

// The islands' wrapper comes from here in the browser, so that the entry does not import react-query.
export { IslandRoot } from "./island-root.tsx";

/** The page's one QueryClient. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; 401/403 already send the user to /login (islands/lib/api.ts).
      retry: (failures, err) => !(err instanceof ApiRequestError && err.status < 500) && failures < 2,
    },
  },
});

// Logout and lost sessions (401/403 anywhere) drop every cached query of the user (docs/product.md §4).
onSessionEnd(() => queryClient.clear());

/** Puts a server render's dehydrated queries (an island's `data-state`) into the page's cache. */
export function hydrateQueries(state: DehydratedState): void {
  hydrate(queryClient, state);
}

/** Gives `children` the page's cache: for a lazy part of an island hydrated without one (islands/nav/NavMenus.tsx). */
export function WithQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
