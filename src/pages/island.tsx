import { createContext, use, useContext, useId, type ComponentType } from "react";
import { renderToReadableStream } from "react-dom/server";
import { dehydrate, type QueryClient } from "@tanstack/react-query";
import type { IslandName } from "../../islands/registry.ts";
import { IslandRoot } from "../../islands/lib/island-root.tsx";
import { islandHost } from "./pages.css.ts";

/** Per-request state shared by the document and its islands. */
export interface PageContextValue {
  /** A fresh QueryClient for this request (never shared between users). */
  queryClient: QueryClient;
  /** Islands the page declared: the document loads exactly their chunks. */
  islands: ReadonlySet<IslandName>;
  /** Server HTML of each island, by the island's position in the page (see Island). */
  islandHtml: Map<string, Promise<string | null>>;
}

/** Carries the per-request PageContextValue from renderPage down to each Island. */
export const PageContext = createContext<PageContextValue | null>(null);

/**
 * Renders an island's HTML as its own React root, exactly as the browser will hydrate it (same wrapper, same
 * identifier prefix), so `useId` values (labels, menus) match between server and browser.
 */
export async function renderIslandHtml(
  element: React.ReactNode,
  client: QueryClient,
  identifierPrefix: string,
): Promise<string> {
  const stream = await renderToReadableStream(<IslandRoot client={client}>{element}</IslandRoot>, {
    identifierPrefix,
    onError(err) {
      console.error("island render failed:", err);
    },
  });
  await stream.allReady;
  return new Response(stream).text();
}

/**
 * Server side of an island (HonoX style): `<div data-island="Name" data-props="json">` holding the component's server
 * HTML; islands/client.tsx hydrates it. `props` must be JSON (React escapes it inside the attribute).
 * The page must declare the island (renderPage's `islands`), so that its scripts are in the document head.
 */
export function Island<P extends object>({
  name,
  component,
  props,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  const page = useContext(PageContext);
  if (!page) throw new Error("<Island> must be rendered through renderPage");
  if (!page.islands.has(name)) throw new Error(`Island ${name} is rendered but not declared in the page's islands`);
  // useId is stable across the retries of a suspended component, so it keys this island's pending render.
  const id = useId();
  const prefix = `${name}-${id.replace(/[^A-Za-z0-9]/g, "")}-`;
  let html = page.islandHtml.get(id);
  if (!html) {
    const Component = component;
    // Deferred to a microtask: a React render must not start inside another one that is in progress.
    html = Promise.resolve()
      .then(() => renderIslandHtml(<Component {...props} />, page.queryClient, prefix))
      .catch((err: unknown) => {
        // The rest of the page still renders; the browser then renders this island from scratch (see client.tsx).
        console.error(`island ${name} failed to render on the server:`, err);
        return null;
      });
    page.islandHtml.set(id, html);
  }
  const markup = use(html);
  const state = page.queryClient
    .getQueryCache()
    .getAll()
    .some((q) => q.state.status === "success")
    ? JSON.stringify(dehydrate(page.queryClient))
    : undefined;
  return (
    <div
      data-island={name}
      data-island-id={prefix}
      data-props={JSON.stringify(props)}
      data-state={state}
      data-ssr={markup === null ? "failed" : undefined}
      // A class, not a style attribute: the pages' CSP allows no inline styles.
      className={islandHost}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own server rendering of the island
      dangerouslySetInnerHTML={{ __html: markup ?? "" }}
    />
  );
}
