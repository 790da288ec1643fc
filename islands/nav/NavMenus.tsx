import { useQueryClient } from "@tanstack/react-query";
import { logout } from "../lib/api.ts";
import { MenuButton } from "./MenuButton.tsx";
import * as s from "./menus.css.ts";

/** Destinations of the Tools menu (spec §2 Authenticated layout). */
export const TOOLS = [
  { label: "Dashboard", href: "/dashboard" },
  { label: "Literature Review", href: "/literature_management" },
  { label: "Literature Suggestions", href: "/suggestions" },
] as const;

/**
 * The top bar's two menus: Tools, and the user menu showing full_name or 'User' with Settings and Logout.
 * Logout drops every cached query before leaving, so nothing of this user stays in memory.
 */
export function NavMenus({ userName }: { userName: string | null }) {
  const queryClient = useQueryClient();
  return (
    <div className={s.bar}>
      <MenuButton label="Tools" items={[...TOOLS]} />
      <MenuButton
        label={userName || "User"}
        items={[
          { label: "Settings", href: "/settings" },
          {
            label: "Logout",
            onSelect: () => {
              queryClient.clear();
              void logout();
            },
          },
        ]}
      />
    </div>
  );
}
