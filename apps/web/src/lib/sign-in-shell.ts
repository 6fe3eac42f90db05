/**
 * The sign-in the server drew (app/sign-in-shell.ts, before the app's hidden `#root`) and what the user
 * did with it before the app took over. The sign-in form reads it when it is first drawn, starts from
 * these values and, once the portal's settings are here too (its header is then the drawn one), removes
 * the drawn page before the browser paints, focuses the same field and, when the form was submitted
 * meanwhile (public/sign-in-shell.js held it back), sends it. Only the login page's chunk has this code:
 * the app's first load, the desk's included, is what it was.
 */
export interface SignInShellState {
  userName: string;
  password: string;
  remember: boolean;
  /** The name of the field that had the focus, if any. */
  focused: string | null;
  submitted: boolean;
}

/** The drawn page, while it is in the document. */
export const signInShell = (): HTMLElement | null => document.getElementById('sign-in-shell');

/** The drawn form's state, while the drawn page is still in the document; null once it is not. */
export function signInShellState(): SignInShellState | null {
  const form = signInShell()?.querySelector<HTMLFormElement>('[data-sign-in-shell-form]');
  if (!form) return null;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const active = document.activeElement;
  return {
    userName: field('username')?.value ?? '',
    password: field('password')?.value ?? '',
    remember: field('remember')?.checked ?? false,
    focused: active instanceof HTMLInputElement && form.contains(active) ? active.name : null,
    submitted: form.hasAttribute('data-submitted'),
  };
}
