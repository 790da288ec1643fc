/**
 * Browser entry. Loaded only by pages that contain islands: finds every `[data-island]` element rendered by
 * src/pages/island.tsx, imports that island's chunk, hydrates it inside the one shared QueryClient, mounts the
 * toasts once, and finally marks `<body data-client-loaded>` (browser tests wait for it).
 */
import { useEffect, type ComponentType } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { QueryClient, hydrate, type DehydratedState } from "@tanstack/react-query";
import { islands, type IslandName } from "./registry.ts";
import { IslandRoot } from "./lib/island-root.tsx";
import { ApiRequestError, onSessionEnd } from "./lib/api.ts";
import { Toasts, showError, showSuccess } from "./lib/toast.tsx";
import { takeFlash } from "./lib/flash.ts";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; 401/403 already send the user to /login (islands/lib/api.ts).
      retry: (failures, err) => !(err instanceof ApiRequestError && err.status < 500) && failures < 2,
    },
  },
});

// Logout and lost sessions (401/403 anywhere) drop every cached query of the user (docs/product.md §4).
onSessionEnd(() => queryClient.clear());

function isIslandName(name: string | undefined): name is IslandName {
  return name !== undefined && Object.hasOwn(islands, name);
}

/** Hydrates one island element; resolves once React has committed it. */
async function hydrateIsland(el: HTMLElement): Promise<void> {
  // Marked first so that a second run of this entry (or a nested element) never hydrates it twice.
  if (el.dataset.hydrated) return;
  el.dataset.hydrated = "pending";
  const name = el.dataset.island;
  if (!isIslandName(name)) throw new Error(`Unknown island "${name}"`);
  // Props come from the server as JSON; their type was checked where the server rendered the island.
  const Component = (await islands[name]()) as ComponentType<Record<string, unknown>>;
  const props = JSON.parse(el.dataset.props ?? "{}") as Record<string, unknown>;
  if (el.dataset.state) hydrate(queryClient, JSON.parse(el.dataset.state) as DehydratedState);
  await new Promise<void>((resolve) => {
    const tree = (
      <IslandRoot client={queryClient} onHydrated={resolve}>
        <Component {...props} />
      </IslandRoot>
    );
    // An island whose server render failed arrives empty: render it here instead of hydrating nothing.
    if (el.dataset.ssr === "failed") createRoot(el, { identifierPrefix: el.dataset.islandId }).render(tree);
    else hydrateRoot(el, tree, { identifierPrefix: el.dataset.islandId });
  });
  el.dataset.hydrated = "true";
}

/** Client-only root for the toasts; shows the message a previous page left (islands/lib/flash.ts) once mounted. */
function ToastHost() {
  useEffect(() => {
    const flash = takeFlash();
    if (flash?.kind === "success") showSuccess(flash.message);
    else if (flash?.kind === "error") showError(flash.message);
  }, []);
  return <Toasts />;
}

async function main(): Promise<void> {
  const elements = [...document.querySelectorAll<HTMLElement>("[data-island]")];
  if (elements.length > 0) {
    const host = document.createElement("div");
    host.id = "toasts";
    document.body.append(host);
    createRoot(host).render(<ToastHost />);
  }
  const results = await Promise.allSettled(elements.map(hydrateIsland));
  for (const r of results) if (r.status === "rejected") console.error("island failed to hydrate:", r.reason);
  // Set even when an island failed, so that tests fail on their assertions rather than on a timeout.
  document.body.setAttribute("data-client-loaded", "true");
}

void main();
