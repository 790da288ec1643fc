/**
 * The weekly digest setting of /settings (issue 11): whether the weekly suggestions e-mail is sent. The digest's
 * one-click unsubscribe turns it off; this turns it back on. Test id: `digest-toggle`.
 */
import { EmailSetting, type EmailSettingSpec } from "./EmailSetting.tsx";

const DIGEST: EmailSettingSpec<"weekly_digest"> = {
  path: "/suggestions/digest",
  field: "weekly_digest",
  title: "Weekly Digest",
  hint: "Your weekly suggestions by e-mail, once a week: each section's first articles, with why they were chosen.",
  label: "E-mail me my weekly suggestions",
  turnedOn: "Weekly digest turned on.",
  turnedOff: "Weekly digest turned off.",
  failed: "Could not change the weekly digest setting.",
  testId: "digest-toggle",
};

export function DigestSection({ hydrated }: { hydrated: boolean }) {
  return <EmailSetting spec={DIGEST} hydrated={hydrated} />;
}
