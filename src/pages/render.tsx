import type { ReactNode } from "react";
import type { Context } from "hono";
import { renderToReadableStream } from "react-dom/server";
import { QueryClient } from "@tanstack/react-query";
import type { IslandName } from "../../islands/registry.ts";
import { Document } from "./document.tsx";
import { PageContext, type PageContextValue } from "./island.tsx";
import { loadManifest, scriptsFor } from "./manifest.ts";
import { cspNonce } from "../http/security.ts";
import { ViewerContext, type Viewer } from "./layouts.tsx";

export interface PageOptions {
  /** Text of <title> (the app name is appended). */
  title: string;
  /** Every island the page renders; their chunks are announced in <head>. Empty: the page ships no JavaScript. */
  islands?: IslandName[];
  status?: 200 | 400 | 403 | 404 | 409;
  body: ReactNode;
  /** The signed-in user looking at a public page (its header then says so), or null/absent for a visitor. */
  viewer?: Viewer | null;
}

/**
 * Streams a page: the response starts as soon as React has the shell (everything not inside a Suspense boundary),
 * so data is loaded before calling this and slow parts, if any, go behind Suspense.
 */
export async function renderPage(c: Context, opts: PageOptions): Promise<Response> {
  const manifest = loadManifest();
  const islands = new Set(opts.islands ?? []);
  const page: PageContextValue = {
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } }),
    islands,
    islandHtml: new Map(),
  };
  const nonce = cspNonce(c);
  const stream = await renderToReadableStream(
    <PageContext value={page}>
      <Document title={opts.title} manifest={manifest} scripts={scriptsFor(manifest, islands)} nonce={nonce}>
        <ViewerContext value={opts.viewer ?? null}>{opts.body}</ViewerContext>
      </Document>
    </PageContext>,
    {
      // Any script React itself streams (Suspense boundaries) must carry the nonce too.
      nonce,
      onError(err) {
        console.error(`page ${c.req.path} failed to render:`, err);
      },
    },
  );
  return new Response(stream, {
    status: opts.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      // Pages depend on the session cookie: never stored by shared caches nor replayed after logout.
      "cache-control": "private, no-store",
    },
  });
}
