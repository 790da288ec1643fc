/**
 * Browser entry. Loaded only by pages that contain islands: finds every `[data-island]` element rendered by
 * src/pages/island.tsx, imports that island's chunk, hydrates it (inside the one shared QueryClient when the island
 * uses the query cache), shows the toast a previous page left, and finally marks `<body data-client-loaded>`
 * (browser tests wait for it).
 *
 * Only React is loaded by every such page: the query library comes with the first island that uses it
 * (./lib/query-root.tsx; the page preloads it, see scripts/build-assets.mjs) and the toasts with the first toast
 * (./lib/toast.tsx). docs/decisions/0043-first-paint-javascript.md says why.
 */
import { useEffect, type ComponentType, type ReactNode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import type { DehydratedState } from "@tanstack/react-query";
import { QUERY_FREE_ISLANDS, islands, type IslandName } from "./registry.ts";
import { showError, showSuccess } from "./lib/toast.tsx";
import { takeFlash } from "./lib/flash.ts";

function isIslandName(name: string | undefined): name is IslandName {
  return name !== undefined && Object.hasOwn(islands, name);
}

/**
 * The browser's wrapper of an island in QUERY_FREE_ISLANDS: lib/island-root.tsx's IslandRoot without the query
 * cache's provider (which renders no markup, so the server's HTML, rendered inside one, still matches).
 */
function QueryFreeRoot({ onHydrated, children }: { onHydrated: () => void; children: ReactNode }) {
  useEffect(() => {
    onHydrated();
  }, [onHydrated]);
  return children;
}

/** Hydrates one island element; resolves once React has committed it. */
async function hydrateIsland(el: HTMLElement): Promise<void> {
  // Marked first so that a second run of this entry (or a nested element) never hydrates it twice.
  if (el.dataset.hydrated) return;
  el.dataset.hydrated = "pending";
  const name = el.dataset.island;
  if (!isIslandName(name)) throw new Error(`Unknown island "${name}"`);
  const usesQueries = !QUERY_FREE_ISLANDS.has(name);
  // Both in parallel: the island's chunk statically imports react-query too, so the two share that chunk.
  const [Component, queries] = await Promise.all([
    islands[name]() as Promise<ComponentType<Record<string, unknown>>>,
    usesQueries ? import("./lib/query-root.tsx") : null,
  ]);
  // Props come from the server as JSON; their type was checked where the server rendered the island.
  const props = JSON.parse(el.dataset.props ?? "{}") as Record<string, unknown>;
  // A query-free island's state, if any, is the page's shared cache, which the page's query islands bring too.
  if (queries && el.dataset.state) queries.hydrateQueries(JSON.parse(el.dataset.state) as DehydratedState);
  await new Promise<void>((resolve) => {
    const tree = queries ? (
      <queries.IslandRoot client={queries.queryClient} onHydrated={resolve}>
        <Component {...props} />
      </queries.IslandRoot>
    ) : (
      <QueryFreeRoot onHydrated={resolve}>
        <Component {...props} />
      </QueryFreeRoot>
    );
    // An island whose server render failed arrives empty: render it here instead of hydrating nothing.
    if (el.dataset.ssr === "failed") createRoot(el, { identifierPrefix: el.dataset.islandId }).render(tree);
    else hydrateRoot(el, tree, { identifierPrefix: el.dataset.islandId });
  });
  el.dataset.hydrated = "true";
}

async function main(): Promise<void> {
  const elements = [...document.querySelectorAll<HTMLElement>("[data-island]")];
  // The message a previous page left (islands/lib/flash.ts); the toasts load with it.
  const flash = elements.length > 0 ? takeFlash() : null;
  if (flash?.kind === "success") showSuccess(flash.message);
  else if (flash?.kind === "error") showError(flash.message);
  const results = await Promise.allSettled(elements.map(hydrateIsland));
  for (const r of results) if (r.status === "rejected") console.error("island failed to hydrate:", r.reason);
  // Set even when an island failed, so that tests fail on their assertions rather than on a timeout.
  document.body.setAttribute("data-client-loaded", "true");
}

void main();
