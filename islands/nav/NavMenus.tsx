import { Suspense, lazy, useEffect, useState } from "react";
import { logout } from "../lib/api.ts";
import { MenuButton, type MenuEntry } from "./MenuButton.tsx";
import * as s from "./menus.css.ts";

/**
 * Loaded once the menus have hydrated: it draws nothing, and it brings the query library (docs/decisions/0043). The
 * query root is imported here too, not by NavSession.tsx, so that it stays one chunk with the entry's import of it.
 */
const NavSession = lazy(async () => {
  const [{ NavSession: Session }, { WithQueries }] = await Promise.all([
    import("./NavSession.tsx"),
    import("../lib/query-root.tsx"),
  ]);
  return {
    default: ({ onName }: { onName: (name: string | null) => void }) => (
      <WithQueries>
        <Session onName={onName} />
      </WithQueries>
    ),
  };
});

/** Destinations of the Tools menu (docs/product.md §2 Authenticated layout). */
export const TOOLS = [
  { label: "Dashboard", href: "/dashboard" },
  { label: "Literature Review", href: "/literature_management" },
  { label: "Literature Suggestions", href: "/suggestions" },
] as const;

/**
 * The top bar's two menus: Tools, and the user menu showing full_name or 'User' with Settings and Logout.
 * `compact` (small screens, where docs/product.md hides the top bar) puts Home, the tools, Settings and Logout in one
 * "Menu" button instead. Logout drops every cached query before leaving, so nothing of this user stays in memory.
 * The name follows the current user in the query cache, so a profile edit on /settings shows here at once.
 * The full menus (rendered once per page, shown from the medium breakpoint) also load the layout's data on mount
 * (islands/lib/session-data.ts). Both live in ./NavSession.tsx, loaded after hydration: the menus hydrate without
 * the query library, and Logout's clearing of the cache happens through onSessionEnd (islands/lib/query-root.tsx).
 */
export function NavMenus({ userName, compact = false }: { userName: string | null; compact?: boolean }) {
  // The cached current user's name once ./NavSession.tsx has it; until then the server's name is shown.
  const [cachedName, setCachedName] = useState<string | null | undefined>(undefined);
  // NavSession is rendered only after hydration (the server and the hydrating render draw the same nothing).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const name = (cachedName !== undefined ? cachedName : userName) || "User";
  // logout() ends the session for every listener, the query cache included (it clears itself).
  const logoutEntry: MenuEntry = { label: "Logout", onSelect: () => void logout() };
  if (compact) {
    return (
      <div className={s.bar}>
        <MenuButton
          label="Menu"
          items={[{ label: "Home", href: "/home" }, ...TOOLS, { label: "Settings", href: "/settings" }, logoutEntry]}
        />
      </div>
    );
  }
  return (
    <div className={s.bar}>
      {hydrated ? (
        <Suspense fallback={null}>
          <NavSession onName={setCachedName} />
        </Suspense>
      ) : null}
      <MenuButton label="Tools" items={[...TOOLS]} />
      <MenuButton label={name} items={[{ label: "Settings", href: "/settings" }, logoutEntry]} />
    </div>
  );
}
