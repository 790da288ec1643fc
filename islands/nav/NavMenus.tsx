import { useQuery, useQueryClient } from "@tanstack/react-query";
import { logout } from "../lib/api.ts";
import { ME_QUERY_KEY, fetchMe, type CurrentUserData } from "../lib/current-user.ts";
import { MenuButton, type MenuEntry } from "./MenuButton.tsx";
import { SessionData } from "../lib/session-data.ts";
import * as s from "./menus.css.ts";

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
 * (islands/lib/session-data.ts).
 */
export function NavMenus({ userName, compact = false }: { userName: string | null; compact?: boolean }) {
  const queryClient = useQueryClient();
  // Never fetched from here (the settings page fills this entry); until then the server's name is shown.
  const me = useQuery<CurrentUserData>({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, enabled: false });
  const name = (me.data ? me.data.full_name : userName) || "User";
  const logoutEntry: MenuEntry = {
    label: "Logout",
    onSelect: () => {
      queryClient.clear();
      void logout();
    },
  };
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
      <SessionData />
      <MenuButton label="Tools" items={[...TOOLS]} />
      <MenuButton label={name} items={[{ label: "Settings", href: "/settings" }, logoutEntry]} />
    </div>
  );
}
