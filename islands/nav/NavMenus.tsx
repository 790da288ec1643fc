import { Menu, MenuButton, MenuDivider, MenuItem } from "@szhsin/react-menu";
import { useQueryClient } from "@tanstack/react-query";
import { logout } from "../lib/api.ts";
import * as s from "./menus.css.ts";

/** Destinations of the Tools menu (spec §2 Authenticated layout). */
export const TOOLS = [
  { label: "Dashboard", href: "/dashboard" },
  { label: "Literature Review", href: "/literature_management" },
  { label: "Literature Suggestions", href: "/suggestions" },
] as const;

// The library gives each item its state; ours highlights the hovered or keyboard-focused one.
const itemClass = ({ hover }: { hover: boolean }) => (hover ? `${s.item} ${s.itemActive}` : s.item);

/**
 * The top bar's two menus (WAI-ARIA menu buttons: arrow keys, Escape, focus return): Tools, and the user menu
 * showing full_name or 'User' with Settings and Logout. Logout drops every cached query before leaving, so nothing
 * of this user stays in memory.
 */
export function NavMenus({ userName }: { userName: string | null }) {
  const queryClient = useQueryClient();
  return (
    <div className={s.bar}>
      <Menu menuButton={<MenuButton className={s.trigger}>Tools ▾</MenuButton>} menuClassName={s.content} align="end" gap={6} portal>
        {TOOLS.map((t) => (
          <MenuItem key={t.href} href={t.href} className={itemClass}>
            {t.label}
          </MenuItem>
        ))}
      </Menu>
      <Menu menuButton={<MenuButton className={s.trigger}>{`${userName || "User"} ▾`}</MenuButton>} menuClassName={s.content} align="end" gap={6} portal>
        <MenuItem href="/settings" className={itemClass}>
          Settings
        </MenuItem>
        <MenuDivider className={s.separator} />
        <MenuItem
          className={itemClass}
          onClick={() => {
            queryClient.clear();
            void logout();
          }}
        >
          Logout
        </MenuItem>
      </Menu>
    </div>
  );
}
