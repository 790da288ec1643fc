/**
 * The address just used to sign up, handed to the login form of the next page so that it need not be typed again
 * (the product's path stays signup → /login with 'Sign up successful! Please log in.'). Kept in sessionStorage for
 * one read: never in the address bar, where it would reach the server's logs and the browser's history.
 */
const PREFILL_KEY = "login_email";

/** Leaves `email` for the login form. Storage may be disabled (private modes): the form then starts empty. */
export function rememberSignupEmail(email: string): void {
  try {
    sessionStorage.setItem(PREFILL_KEY, email);
  } catch {
    // Nothing to keep.
  }
}

/** The address left by the sign-up form, once (it is forgotten as it is read), or "" when there is none. */
export function takeSignupEmail(): string {
  try {
    const email = sessionStorage.getItem(PREFILL_KEY) ?? "";
    sessionStorage.removeItem(PREFILL_KEY);
    return email;
  } catch {
    return "";
  }
}
