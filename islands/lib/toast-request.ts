/**
 * The shape of one toast request, shared by ./toast.tsx (which islands call) and ./toaster.tsx (which shows it, loaded
 * on the first toast). Kept apart from both so that neither module imports the other's file for a type.
 */

/**
 * One toast as islands ask for it; `action` only with kind "info" (a button such as Undo). `form` names the form the
 * toast reports on: a success of that form dismisses the form's earlier toasts (issue 35: "Incorrect password" stayed
 * beside "Password updated successfully.").
 */
export type ToastRequest =
  | { kind: "success" | "error"; message: string; action?: undefined; form?: string }
  | { kind: "info"; message: string; action?: { label: string; run: () => void }; form?: string };
