/**
 * The sign-in the server sent drawn (app/sign-in-shell.ts) and what the user did with it before the app
 * took over: read once, just before the first render replaces it (main.tsx), and handed to the sign-in
 * form (features/auth/login-page.tsx), which starts from these values, focuses the same field and, when
 * the form was submitted meanwhile (public/sign-in-shell.js held it back), sends it.
 */
export interface SignInShellState {
  userName: string;
  password: string;
  remember: boolean;
  /** The name of the field that had the focus, if any. */
  focused: string | null;
  submitted: boolean;
}

/** Whether the page came with the drawn sign-in (the first render then waits for all it replaces it with). */
export const hasSignInShell = (): boolean =>
  typeof document !== 'undefined' && document.querySelector('[data-sign-in-shell-form]') !== null;

let taken: SignInShellState | null = null;

/** Reads the drawn form's state; called once, right before the app's first render. */
export function takeSignInShell(): void {
  const form = document.querySelector<HTMLFormElement>('[data-sign-in-shell-form]');
  if (!form) return;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const active = document.activeElement;
  taken = {
    userName: field('username')?.value ?? '',
    password: field('password')?.value ?? '',
    remember: field('remember')?.checked ?? false,
    focused: active instanceof HTMLInputElement && form.contains(active) ? active.name : null,
    submitted: form.hasAttribute('data-submitted'),
  };
}

/** The drawn form's state, until the sign-in form has taken it (`forgetSignInShell`). */
export const signInShellState = (): SignInShellState | null => taken;

/** A later sign-in form starts empty. */
export function forgetSignInShell(): void {
  taken = null;
}
