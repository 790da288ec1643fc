/**
 * The share e-mail setting of /settings: whether the user is e-mailed when someone shares an article with them.
 * The e-mail's one-click unsubscribe turns it off; this turns it back on (or off). Test id: `share-email-toggle`.
 */
import { EmailSetting, type EmailSettingSpec } from "./EmailSetting.tsx";

const SHARE_EMAILS: EmailSettingSpec<"share_emails"> = {
  path: "/shares/email-setting",
  field: "share_emails",
  title: "Shared Articles",
  hint: "Articles shared with you always appear under Received Shares on your dashboard.",
  label: "E-mail me when someone shares an article with me",
  turnedOn: "Share e-mails turned on.",
  turnedOff: "Share e-mails turned off.",
  failed: "Could not change the share e-mail setting.",
  testId: "share-email-toggle",
};

export function ShareEmailSection({ hydrated }: { hydrated: boolean }) {
  return <EmailSetting spec={SHARE_EMAILS} hydrated={hydrated} />;
}
