import type { ComponentType } from "react";
import type { ReviewWorkspaceProps } from "../../islands/review-workspace/ReviewWorkspace.tsx";
import type { CurrentUser } from "../auth/middleware.ts";
import { Island } from "./island.tsx";
import { SettingsPanel } from "../../islands/settings/SettingsPanel.tsx";
import { Dashboard, type DashboardProps } from "../../islands/dashboard/Dashboard.tsx";
import { Suggestions } from "../../islands/suggestions/Suggestions.tsx";
import type { CurrentUserData } from "../../islands/lib/current-user.ts";
import { visuallyHidden } from "../../islands/lib/visually-hidden.css.ts";
import * as s from "./pages.css.ts";

/** The four cards of /home (docs/product.md §2), in order. */
export const HOME_CARDS = [
  { title: "Dashboard", text: "View your likes and shares.", href: "/dashboard" },
  { title: "Literature Review", text: "Review biomedical literature.", href: "/literature_management" },
  { title: "Suggestions", text: "Get personalized article suggestions.", href: "/suggestions" },
  { title: "Settings", text: "Manage user, and subscription info.", href: "/settings" },
] as const;

/** /home: greets by full name, else e-mail, and links to the four tools. */
export function HomePage({ user }: { user: CurrentUser }) {
  return (
    <>
      <h1 className={s.pageTitle}>{`Hi, ${user.full_name || user.email}`}</h1>
      <p className={s.lead}>Welcome back, nice to see you again!</p>
      <div className={s.cardGrid}>
        {HOME_CARDS.map((card) => (
          <a key={card.href} href={card.href} className={s.linkCard}>
            <h2 className={s.cardTitle}>{card.title}</h2>
            <p className={s.cardText}>{card.text}</p>
          </a>
        ))}
      </div>
    </>
  );
}

/**
 * /dashboard ('My Dashboard', docs/product.md §2): the heading and the dashboard island (liked articles, received
 * shares).
 */
export function DashboardPage(props: DashboardProps) {
  return (
    <>
      <h1 className={s.pageTitle}>My Dashboard</h1>
      <Island name="Dashboard" component={Dashboard} props={props} />
    </>
  );
}

/**
 * /settings (docs/product.md §2): one 'User' tab holding the settings island (profile, password, main interests, and
 * for regular users the subscription status and the Danger Zone). The island renders on the server too, so the
 * read-only values are in the first response.
 */
export function SettingsPage({ user, adminWarning = null }: { user: CurrentUser; adminWarning?: string | null }) {
  const props: CurrentUserData = {
    id: user.id,
    email: user.email,
    full_name: user.full_name,
    institution_email: user.institution_email,
    description: user.description,
    is_superuser: user.is_superuser,
  };
  return (
    <>
      <h1 className={s.pageTitle}>User Settings</h1>
      {user.is_superuser && adminWarning ? (
        <p role="note" className={s.adminWarning} data-testid="admin-size-warning">
          {adminWarning}
        </p>
      ) : null}
      <div role="tablist" aria-label="Settings" className={s.tabs}>
        <button
          type="button"
          role="tab"
          id="settings-tab-user"
          aria-selected="true"
          aria-controls="settings-panel-user"
          className={s.tab}
        >
          User
        </button>
      </div>
      <div role="tabpanel" id="settings-panel-user" aria-labelledby="settings-tab-user">
        <Island name="SettingsPanel" component={SettingsPanel} props={{ user: props }} />
      </div>
    </>
  );
}

/**
 * The product's texts of the gate shown to a user without an active Plus, Pro or Max subscription (docs/product.md §2).
 */
const GATES = {
  "Literature Reviews": {
    title: "Upgrade to Access Literature Reviews",
    text: "The Literature Review feature requires an active Plus, Pro, or Max subscription.",
  },
  "Weekly Suggestions": {
    title: "Upgrade to Access Weekly Suggestions",
    text: "The Weekly Suggestions feature requires an active Plus, Pro, or Max subscription.",
  },
} as const;

/** The gate shown to a user without an active Plus, Pro or Max subscription (docs/product.md §2). */
export function UpgradeGate({ feature }: { feature: keyof typeof GATES }) {
  const gate = GATES[feature];
  return (
    <section className={`${s.card} ${s.gateCard}`}>
      <h1 className={s.pageTitle}>{gate.title}</h1>
      <p className={s.lead}>{gate.text}</p>
      <a href="/settings?tab=subscription" className={s.button.primary}>
        View Subscription Plans
      </a>
    </section>
  );
}

/** /suggestions with access (docs/product.md §2): the heading, its text and the suggestions island. */
export function SuggestionsPage() {
  return (
    <>
      <h1 className={s.pageTitle}>Your Weekly Suggestions</h1>
      <p className={s.lead}>Suggestions are curated from your latest liked articles and your profile description.</p>
      <Island name="Suggestions" component={Suggestions} props={{}} />
    </>
  );
}

/** /literature_management with access: the review workspace island (loaded on demand by the route). */
export function LiteraturePage({
  workspace,
  corpus,
}: {
  workspace: ComponentType<ReviewWorkspaceProps>;
  corpus: ReviewWorkspaceProps["corpus"];
}) {
  return (
    <>
      <h1 className={visuallyHidden}>Literature Review</h1>
      <Island name="ReviewWorkspace" component={workspace} props={{ corpus }} />
    </>
  );
}
