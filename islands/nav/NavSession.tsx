import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { ME_QUERY_KEY, fetchMe, type CurrentUserData } from "../lib/current-user.ts";
import { SessionData } from "../lib/session-data.ts";

/** Tells `onName` the user's full_name each time the query cache's current user changes (a profile edit). */
function CurrentName({ onName }: { onName: (name: string | null) => void }): null {
  // Never fetched from here (the settings page fills this entry).
  const me = useQuery<CurrentUserData>({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, enabled: false });
  useEffect(() => {
    if (me.data) onName(me.data.full_name);
  }, [me.data, onName]);
  return null;
}

/**
 * What the top bar's full menus do with the page's query cache, loaded after they hydrate (nothing here is drawn,
 * so the first paint does not wait for the query library): the layout's data loads (../lib/session-data.ts) and
 * the shown name following the cached current user, so a profile edit on /settings shows at once. Render it inside
 * the page's cache (../lib/query-root.tsx WithQueries).
 */
export function NavSession({ onName }: { onName: (name: string | null) => void }) {
  return (
    <>
      <SessionData />
      <CurrentName onName={onName} />
    </>
  );
}
