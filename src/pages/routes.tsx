import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { ComponentType, ReactNode } from "react";
import type { AppDeps } from "../deps.ts";
import { resolveUser, type CurrentUser } from "../auth/middleware.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE, apiNotFound } from "../http/errors.ts";
import { hasActiveReviewAccess } from "../subscriptions/service.ts";
import type { IslandName } from "../../islands/registry.ts";
import { renderPage } from "./render.tsx";
import { corpusStats, embeddedSizeWarning } from "../articles/corpus.ts";
import type { ReviewWorkspaceProps } from "../../islands/review-workspace/ReviewWorkspace.tsx";
import { serveAsset } from "./assets.ts";
import { APP_LAYOUT_ISLANDS, AppLayout, siteOf, viewerOf, type Site } from "./layouts.tsx";
import { founderOf, LandingPage, LEGAL_PAGES, LegalPage, NotFoundPage } from "./public-pages.tsx";
import { LEGAL_PAGES_EN, LegalPageEnglish } from "./legal-english.tsx";
import { AUTH_PAGES, AuthPage } from "./auth-pages.tsx";
import { UNSUBSCRIBE_TEXTS, UnsubscribePage } from "./unsubscribe-page.tsx";
import { readUnsubscribeToken } from "../suggestions/digest.ts";
import { setWeeklyDigest } from "../suggestions/service.ts";
import { verifyUnsubscribeToken } from "../email/list-unsubscribe.ts";
import { setShareEmails } from "../shares/service.ts";
import { dataExportState } from "../privacy/data-export.ts";
import { DataExportPage, downloadPageStatus } from "./data-export-page.tsx";
import { loginPathFor, safeNextPath } from "../../islands/lib/next-path.ts";
import { PricingPage, pricingOf } from "./pricing-page.tsx";
import { DashboardPage, HomePage, LiteraturePage, SettingsPage, SuggestionsPage, UpgradeGate } from "./app-pages.tsx";

type PageEnv = { Variables: { user: CurrentUser } };
type PagesApp = Hono<PageEnv>;

/** The query string of the request, with its leading "?", or "" (redirects keep it, docs/product.md §2). */
function queryOf(c: Context): string {
  return new URL(c.req.url).search;
}

// The workspace is the largest module of the pages; it is loaded on the first request that needs it.
let workspaceModule: Promise<ComponentType<ReviewWorkspaceProps>> | null = null;
function loadWorkspace(): Promise<ComponentType<ReviewWorkspaceProps>> {
  workspaceModule ??= import("../../islands/review-workspace/ReviewWorkspace.tsx").then((m) => m.ReviewWorkspace);
  return workspaceModule;
}

/** The site's icon: a teal rounded square with a white "L" (the logo's mark), 32×32. */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b6e6e"/>' +
  '<path d="M11 8v16h11" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * The pages of docs/product.md §2, server-rendered and streamed, with the session decided on the server from the
 * `access_token` cookie (or a bearer header):
 * - `/` goes to /home when signed in, else to /landing, keeping the query string. It is also the index of the
 *   authenticated layout (whose routes have no common prefix): for a signed-in visitor that index's rule,
 *   "redirect to /home keeping the query string", is exactly what `/` does, so no separate path exists for it.
 * - /login, /signup, /recover-password, /reset-password go to / when already signed in (to their `next` parameter
 *   instead when it is a path of this site, islands/lib/next-path.ts).
 * - /home, /dashboard, /literature_management, /settings, /suggestions need a session, else go to /login, with the
 *   page asked for (path and query) as `next` so that logging in leads back to it (a share e-mail's link).
 * - /pricing shows the plans and prices to anyone; /legal/en, /privacy/en, /cookies/en are English reading versions
 *   of the French legal pages, which stay the governing texts.
 * - anything else outside /api is the 404 page, with status 404.
 * Also serves the built assets under /assets/ and the favicon.
 *
 * Each area registers its own routes below. The order of registration is Hono's order of matching: the session check
 * comes before the pages it guards, and the 404 catch-all comes last.
 */
export function pagesRoutes(deps: AppDeps) {
  const app: PagesApp = new Hono<PageEnv>();
  const site = siteOf(deps.config);
  registerAssetRoutes(app);
  registerPublicPages(app, deps, site);
  registerUnsubscribePages(app, deps, site);
  registerAuthPages(app, deps, site);
  registerAccountPages(app, deps, site);
  registerSubscriberPages(app, deps, site);
  registerNotFoundPage(app, deps, site);
  app.onError(pageError);
  return app;
}

/** The built assets under /assets/ and the favicon under both names browsers ask for. */
function registerAssetRoutes(app: PagesApp): void {
  app.get("/assets/:file", serveAsset);
  // Browsers ask for /favicon.ico on their own; both names answer with the same small SVG mark.
  const favicon = (c: Context) =>
    c.body(FAVICON_SVG, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" });
  app.get("/favicon.svg", favicon);
  app.get("/favicon.ico", favicon);
}

/**
 * Who is looking at a public page: signed in (the header then says so and links to /home instead of "Log In"), or
 * null for a visitor. Costs the session's one indexed read, and nothing without a session cookie.
 */
function viewerOfRequest(deps: AppDeps) {
  return async (c: Context) => {
    const user = await resolveUser(deps, c);
    return user ? viewerOf(user) : null;
  };
}

/** `/` (to /home or /landing), the landing page, the legal pages in French and English, and the pricing page. */
function registerPublicPages(app: PagesApp, deps: AppDeps, site: Site): void {
  const founder = founderOf(deps.config);
  const viewer = viewerOfRequest(deps);

  app.get("/", async (c) => {
    const user = await resolveUser(deps, c);
    return c.redirect(`${user ? "/home" : "/landing"}${queryOf(c)}`, 302);
  });

  // The 36M+ claim holds only while reviews reach all of PubMed; with PubMed on demand off, the page says what the
  // local index holds instead.
  app.get("/landing", async (c) => {
    const held = deps.config.PUBMED_ON_DEMAND ? null : (await corpusStats(deps.db)).records;
    return renderPage(c, {
      title: "Research tools for biomedical scientists",
      body: <LandingPage site={site} founder={founder} heldRecords={held} />,
      viewer: await viewer(c),
    });
  });
  for (const page of ["privacy", "legal", "cookies"] as const) {
    app.get(`/${page}`, async (c) =>
      renderPage(c, {
        title: LEGAL_PAGES[page].title,
        body: <LegalPage page={page} site={site} />,
        viewer: await viewer(c),
      }),
    );
    app.get(`/${page}/en`, async (c) =>
      renderPage(c, {
        title: LEGAL_PAGES_EN[page].title,
        body: <LegalPageEnglish page={page} site={site} />,
        viewer: await viewer(c),
      }),
    );
  }

  // The plans without signing in: the prices come from the same source as the settings page, with its fallbacks.
  app.get("/pricing", async (c) => {
    const signedIn = await viewer(c);
    const body = <PricingPage site={site} pricing={await pricingOf(deps.config)} signedIn={signedIn !== null} />;
    return renderPage(c, { title: "Pricing", body, viewer: signedIn });
  });
}

/**
 * The unsubscribe links of the e-mails: the signed token is the only credential; no session needed.
 * The weekly digest's link follows RFC 8058: GET asks to confirm, POST (the button, or a mail client's one-click
 * "List-Unsubscribe=One-Click") unsubscribes. The share notification e-mails' link works the same way.
 */
function registerUnsubscribePages(app: PagesApp, deps: AppDeps, site: Site): void {
  // The token's signed purpose keeps the two lists apart (src/shares/notify.ts signs the shares' one).
  const lists = [
    {
      path: "/unsubscribe",
      title: "Weekly digest",
      texts: UNSUBSCRIBE_TEXTS.digest,
      reader: (token: string) => readUnsubscribeToken(deps.secretKey, token),
      turnOff: (userId: string) => setWeeklyDigest(deps, userId, false),
    },
    {
      path: "/unsubscribe/shares",
      title: "Shared articles",
      texts: UNSUBSCRIBE_TEXTS.shares,
      reader: (token: string) => verifyUnsubscribeToken(deps.secretKey, token, "share-email-unsubscribe"),
      turnOff: (userId: string) => setShareEmails(deps, userId, false),
    },
  ];
  for (const list of lists) {
    const answer = async (c: Context, confirmed: boolean) => {
      const token = c.req.query("token") ?? "";
      const userId = await list.reader(token);
      if (userId && confirmed) await list.turnOff(userId);
      const state = !userId ? "invalid" : confirmed ? "done" : "confirm";
      const action = `${list.path}?token=${encodeURIComponent(token)}`;
      const body = <UnsubscribePage site={site} state={state} action={action} texts={list.texts} />;
      return renderPage(c, { title: list.title, status: userId ? 200 : 400, body });
    };
    app.get(list.path, (c) => answer(c, false));
    app.post(list.path, (c) => answer(c, true));
  }
}

/** /login, /signup, /recover-password, /reset-password: for visitors only; a signed-in user is sent on. */
function registerAuthPages(app: PagesApp, deps: AppDeps, site: Site): void {
  for (const path of Object.keys(AUTH_PAGES) as (keyof typeof AUTH_PAGES)[]) {
    const page = AUTH_PAGES[path];
    app.get(path, async (c) => {
      if (await resolveUser(deps, c)) return c.redirect(safeNextPath(c.req.query("next")) ?? "/", 302);
      return renderPage(c, { title: page.title, islands: [page.island], body: <AuthPage path={path} site={site} /> });
    });
    // The forms post through their island; a native submission (no script) just comes back to the form.
    app.post(path, (c) => c.redirect(`${path}${queryOf(c)}`, 303));
  }
}

/** The paths that need a session: without one, the browser goes to /login and comes back here after logging in. */
const SESSION_PATHS = ["/home", "/dashboard", "/literature_management", "/settings", "/suggestions", "/my-data/:id"];

/** Renders a page of the authenticated layout; `islands` are the page's own, the layout's are added. */
function appPageOf(site: Site) {
  return (c: Context<PageEnv>, title: string, body: ReactNode, islands: IslandName[] = [], fullWidth = false) =>
    renderPage(c, {
      title,
      islands: [...APP_LAYOUT_ISLANDS, ...islands],
      body: (
        <AppLayout user={c.get("user")} site={site} fullWidth={fullWidth}>
          {body}
        </AppLayout>
      ),
    });
}

/**
 * The session check of SESSION_PATHS, then the signed-in pages open to every account: the data export's download
 * page, /home, /dashboard and /settings.
 */
function registerAccountPages(app: PagesApp, deps: AppDeps, site: Site): void {
  const requireSession: MiddlewareHandler<PageEnv> = async (c, next) => {
    const user = await resolveUser(deps, c);
    if (!user) return c.redirect(loginPathFor(`${c.req.path}${queryOf(c)}`), 302);
    c.set("user", user);
    await next();
  };
  for (const path of SESSION_PATHS) app.use(path, requireSession);
  const appPage = appPageOf(site);

  // The "Download my data" e-mail's link (src/privacy/data-export.ts): signed out, requireSession sends the browser
  // through /login and back here.
  app.get("/my-data/:id", async (c) => {
    const id = c.req.param("id");
    const state = await dataExportState(deps.db, c.get("user").id, id, new Date());
    return renderPage(c, {
      title: "Your data",
      status: downloadPageStatus(state),
      islands: [...APP_LAYOUT_ISLANDS],
      body: (
        <AppLayout user={c.get("user")} site={site}>
          <DataExportPage exportId={id} state={state} />
        </AppLayout>
      ),
    });
  });

  app.get("/home", (c) => appPage(c, "Home", <HomePage user={c.get("user")} />));
  app.get("/dashboard", (c) => {
    // ?tab=shares opens Received Shares; ?article=PMID (a share e-mail's link) opens that article's dialog.
    const initialTab = c.req.query("tab") === "shares" ? "shares" : "likes";
    const article = c.req.query("article");
    const openPmid = article && /^\d{1,9}$/.test(article) ? article : null;
    return appPage(c, "My Dashboard", <DashboardPage initialTab={initialTab} openPmid={openPmid} />, ["Dashboard"]);
  });
  app.get("/settings", async (c) => {
    const user = c.get("user");
    // Administrators are told when the embedded database has grown past what it is meant for (docs/scaling.md).
    const adminWarning = user.is_superuser
      ? embeddedSizeWarning(!deps.config.DATABASE_URL, await corpusStats(deps.db))
      : null;
    return appPage(c, "User Settings", <SettingsPage user={user} adminWarning={adminWarning} />, ["SettingsPanel"]);
  });
}

/**
 * The signed-in pages that need an active Plus, Pro or Max subscription (docs/product.md §6): /suggestions and
 * /literature_management; without one they show the upgrade notice. Registered after registerAccountPages, whose
 * session check they rely on.
 */
function registerSubscriberPages(app: PagesApp, deps: AppDeps, site: Site): void {
  const appPage = appPageOf(site);

  app.get("/suggestions", async (c) => {
    // Same rule as reviews: an active Plus, Pro or Max subscription (docs/product.md §6).
    if (!(await hasActiveReviewAccess(deps.db, c.get("user").id))) {
      return appPage(c, "Weekly Suggestions", <UpgradeGate feature="Weekly Suggestions" />);
    }
    return appPage(c, "Weekly Suggestions", <SuggestionsPage />, ["Suggestions"]);
  });

  app.get("/literature_management", async (c) => {
    if (!(await hasActiveReviewAccess(deps.db, c.get("user").id))) {
      return appPage(c, "Literature Review", <UpgradeGate feature="Literature Reviews" />);
    }
    const [workspace, stats] = await Promise.all([loadWorkspace(), corpusStats(deps.db)]);
    const corpus = {
      records: stats.records,
      approximate: stats.approximate,
      lastUpdated: stats.lastUpdated?.toISOString() ?? null,
    };
    return appPage(
      c,
      "Literature Review",
      <LiteraturePage workspace={workspace} corpus={corpus} />,
      ["ReviewWorkspace"],
      true,
    );
  });
}

/** The catch-all, registered last: the 404 page, or the API's JSON 404 for unknown paths under /api. */
function registerNotFoundPage(app: PagesApp, deps: AppDeps, site: Site): void {
  const viewer = viewerOfRequest(deps);
  app.all("*", async (c) => {
    // Unknown API paths stay JSON, in the API's error shape. This catch-all is the one place they are answered: a
    // sub-app's own notFound never runs once it is mounted with app.route (Hono answers from the root's routes).
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return apiNotFound(c);
    return renderPage(c, {
      title: "Page not found",
      status: 404,
      body: <NotFoundPage site={site} />,
      viewer: await viewer(c),
    });
  });
}

/** The pages' error handler: a 503 page that reloads itself while the database is unavailable, else a 500 page. */
function pageError(err: Error, c: Context<PageEnv>) {
  // A database that cannot answer now is not the visitor's fault and not a lost session: say so and retry.
  if (isDatabaseUnavailable(err)) {
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}"><title>Temporarily unavailable | LitReview</title></head><body><h1>Temporarily unavailable</h1><p>${SERVICE_UNAVAILABLE} This page reloads on its own.</p></body></html>`,
      503,
      { "Retry-After": String(RETRY_AFTER_SECONDS) },
    );
  }
  const requestId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  console.error(`[${requestId}] page ${c.req.method} ${c.req.path} failed:`, err);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error | LitReview</title></head><body><h1>Something went wrong!</h1><p>An unexpected error occurred. Please try again.</p><p><a href="/">Go Back</a></p></body></html>`,
    500,
  );
}
