import type { ComponentType } from "react";
import { LoginForm } from "../../islands/auth/LoginForm.tsx";
import { SignupForm } from "../../islands/auth/SignupForm.tsx";
import { RecoverPasswordForm } from "../../islands/auth/RecoverPasswordForm.tsx";
import { ResetPasswordForm } from "../../islands/auth/ResetPasswordForm.tsx";
import type { IslandName } from "../../islands/registry.ts";
import { Island } from "./island.tsx";
import { PublicLayout, type Site } from "./layouts.tsx";
import * as s from "./pages.css.ts";

/** The public account pages: path, title and the form island each one renders. */
export const AUTH_PAGES = {
  "/login": { title: "Log In", island: "LoginForm", component: LoginForm },
  "/signup": { title: "Sign Up", island: "SignupForm", component: SignupForm },
  "/recover-password": { title: "Password Recovery", island: "RecoverPasswordForm", component: RecoverPasswordForm },
  "/reset-password": { title: "Reset Password", island: "ResetPasswordForm", component: ResetPasswordForm },
} as const satisfies Record<
  string,
  { title: string; island: IslandName; component: ComponentType<Record<string, never>> }
>;

/** A public account page: the form island in a centred card. */
export function AuthPage({ path, site }: { path: keyof typeof AUTH_PAGES; site: Site }) {
  const page = AUTH_PAGES[path];
  return (
    <PublicLayout site={site} headerLink={false}>
      <div className={s.authMain}>
        <div className={s.authCard}>
          <Island name={page.island} component={page.component} props={{}} />
        </div>
      </div>
    </PublicLayout>
  );
}
