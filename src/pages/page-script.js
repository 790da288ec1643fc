// The one inline script of every page (src/pages/document.tsx sends it minified, with the request's CSP nonce).
// It runs in <head>, before the body is parsed, so that what it sets on <html> applies from the first paint:
// 1. Theme (docs/product.md §1): the theme stored under localStorage "theme" ("dark", anything else is light) becomes
//    <html data-theme>; buttons with data-action="toggle-theme" switch it and store the new choice.
// 2. The help panel (a <details data-help>) closes with Escape and gives focus back to its button.
// 3. Cookie consent (src/pages/legal/CookiePolicy.tsx): the choice stored under localStorage "cookie_consent"
//    becomes <html data-consent="accepted|refused">, or "unset" when there is none or it is older than six months.
//    The stylesheet shows the banner while it is "unset" (no answer counts as refusal: nothing that needs consent
//    is set meanwhile) or while <html data-consent-open> is present (reopened by "Manage cookies").
// 4. The migration banner of signed-in pages folds to one line on a phone: folded unless the visitor unfolded it (issue
//    35: unfolded, banner and top bar took 183 of a phone's 844 px on every page). The choice is stored under
//    localStorage "banner_collapsed" ("false" once unfolded, "true" once folded again) and becomes
//    <html data-banner-collapsed> before the first paint; a button with data-action="toggle-banner" switches it
//    (docs/decisions/0036-first-hour.md). The stylesheet folds it only below the medium breakpoint, so the attribute
//    changes nothing on a wider screen.
// 5. Session restore: logged in, for the product, means a token stored under localStorage "access_token"; the server
//    pages read the HttpOnly session cookie, which a browser drops when it restarts. On a page the server shows only
//    to visitors (the account forms, /landing), a stored token is exchanged for the cookie (POST
//    /api/v1/login/session, bearer only) and the page is asked for again, so that the server's redirects apply: an
//    account form goes to its `next` or to /, and /landing, when "/" sent the browser there (a visit straight to
//    /landing is left alone), goes back to "/" and so to /home. A refused token (401) is removed, as any 401 is.
// Plain ES2017 without dependencies, and one click listener on the document: no element has to exist yet, and
// pages without islands need no script file for any of this.
(function () {
  var root = document.documentElement;
  var THEME_KEY = "theme";
  var CONSENT_KEY = "cookie_consent";
  // The CNIL recommends asking again after six months, whether the answer was yes or no.
  var CONSENT_MAX_AGE_MS = 182 * 24 * 60 * 60 * 1000;
  // Cookies that may only exist with consent; refusing or withdrawing consent deletes them.
  var CONSENT_COOKIES = ["lang"];
  var STATUS = { accepted: "Your current choice: cookies accepted.", refused: "Your current choice: cookies refused." };
  // The control that reopened the banner, to give focus back to it once the banner closes.
  var opener = null;

  // Storage can be disabled (private modes, policies): the page then works with the defaults.
  function read(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  function write(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (e) {}
  }

  function storedChoice() {
    try {
      var saved = JSON.parse(read(CONSENT_KEY) || "null");
      var fresh = saved && Date.now() - Date.parse(saved.date) < CONSENT_MAX_AGE_MS;
      if (fresh && (saved.choice === "accepted" || saved.choice === "refused")) return saved.choice;
    } catch (e) {}
    return "unset";
  }

  root.setAttribute("data-theme", read(THEME_KEY) === "dark" ? "dark" : "light");
  root.setAttribute("data-consent", storedChoice());
  var BANNER_KEY = "banner_collapsed";
  if (read(BANNER_KEY) !== "false") root.setAttribute("data-banner-collapsed", "");

  var TOKEN_KEY = "access_token";
  var VISITOR_PAGES = ["/login", "/signup", "/recover-password", "/reset-password", "/landing"];
  // How long the form may stay hidden while the session is restored, should the server be slow to answer.
  var RESTORE_WAIT_MS = 4000;
  /** Whether this page was reached through a redirect (the only one to /landing is that of "/" for a visitor). */
  function redirectedHere() {
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    return Boolean(nav && nav.redirectCount > 0);
  }
  function restoreSession(token) {
    var accountForm = location.pathname !== "/landing";
    function done() {
      root.removeAttribute("data-session-restoring");
    }
    // An account form about to be left is not shown meanwhile (the stylesheet hides the page under this flag).
    if (accountForm) {
      root.setAttribute("data-session-restoring", "");
      setTimeout(done, RESTORE_WAIT_MS);
    }
    var headers = { authorization: "Bearer " + token, accept: "application/json" };
    fetch("/api/v1/login/session", { method: "POST", credentials: "same-origin", headers: headers })
      .then(function (res) {
        if (res.ok) {
          return location.replace(accountForm ? location.href : "/" + location.search);
        } else if (res.status === 401) {
          try {
            localStorage.removeItem(TOKEN_KEY);
          } catch (e) {}
        }
        done();
      })
      .catch(done);
  }
  var storedToken = read(TOKEN_KEY);
  var path = location.pathname;
  var visitorPage = VISITOR_PAGES.indexOf(path) >= 0 && (path !== "/landing" || redirectedHere());
  if (storedToken && visitorPage && window.fetch) restoreSession(storedToken);

  /** Brings the controls' state in line with <html>: toggles' aria-pressed and the banner's status line. */
  function sync() {
    var dark = String(root.getAttribute("data-theme") === "dark");
    var toggles = document.querySelectorAll('[data-action="toggle-theme"]');
    for (var i = 0; i < toggles.length; i++) toggles[i].setAttribute("aria-pressed", dark);
    var expanded = String(!root.hasAttribute("data-banner-collapsed"));
    var folds = document.querySelectorAll('[data-action="toggle-banner"]');
    for (var j = 0; j < folds.length; j++) folds[j].setAttribute("aria-expanded", expanded);
    var status = document.getElementById("cookie-consent-status");
    if (status) status.textContent = STATUS[root.getAttribute("data-consent")] || "";
  }

  function closeReopened() {
    root.removeAttribute("data-consent-open");
    if (opener) opener.focus();
    opener = null;
  }

  function decide(choice) {
    write(CONSENT_KEY, JSON.stringify({ choice: choice, date: new Date().toISOString() }));
    if (choice === "refused") {
      for (var i = 0; i < CONSENT_COOKIES.length; i++) document.cookie = CONSENT_COOKIES[i] + "=; Max-Age=0; Path=/; SameSite=Lax";
    }
    root.setAttribute("data-consent", choice);
    closeReopened();
    // Lets any code that sets a consent-bound cookie react at once; it reads <html data-consent> otherwise.
    document.dispatchEvent(new CustomEvent("cookie-consent", { detail: choice }));
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (!target) return;
    var action = target.getAttribute("data-action");
    if (action === "toggle-theme") {
      var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      write(THEME_KEY, next);
    } else if (action === "toggle-banner") {
      var collapse = !root.hasAttribute("data-banner-collapsed");
      if (collapse) root.setAttribute("data-banner-collapsed", "");
      else root.removeAttribute("data-banner-collapsed");
      write(BANNER_KEY, String(collapse));
    } else if (action === "consent-accept") decide("accepted");
    else if (action === "consent-refuse") decide("refused");
    else if (action === "consent-manage") {
      opener = target;
      root.setAttribute("data-consent-open", "");
      sync();
      var first = document.querySelector("#cookie-banner button");
      if (first) first.focus();
    } else return;
    sync();
  });

  // Escape closes a reopened banner without changing the choice (a first-visit banner stays until answered), and
  // the open help panel, giving focus back to its button.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    if (root.hasAttribute("data-consent-open")) return closeReopened();
    var help = document.querySelector("details[data-help][open]");
    if (help) {
      help.removeAttribute("open");
      var button = help.querySelector("summary");
      if (button) button.focus();
    }
  });

  document.addEventListener("DOMContentLoaded", sync);
})();
