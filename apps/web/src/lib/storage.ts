/**
 * The keys of SPEC B6, in one place; `staffToken` is the staff desk's session, kept apart from the
 * contact's so neither side ever sends the other's token (and signing out of one leaves the other).
 */
const KEYS = {
  token: 'token',
  staffToken: 'staffToken',
  language: 'language',
  company: 'company',
  contactId: 'contactId',
} as const;
type Key = keyof typeof KEYS;

const read = (store: () => Storage, key: string): string | null => {
  try {
    return store().getItem(key);
  } catch {
    return null;
  }
};
const write = (store: () => Storage, key: string, value: string | null): void => {
  try {
    if (value === null) store().removeItem(key);
    else store().setItem(key, value);
  } catch {
    // Private mode or storage full: the app still works for this tab.
  }
};
const local = () => localStorage;
const session = () => sessionStorage;

export const storage = {
  /**
   * The token is in localStorage when "remember me" was chosen at sign-in, else in sessionStorage, so
   * it ends with the browser session (the server's TOKEN_TTL_HOURS bounds it too).
   */
  get(key: Key): string | null {
    if (key === 'token') return read(session, KEYS.token) ?? read(local, KEYS.token);
    return read(local, KEYS[key]);
  },
  /** A value, or null to forget it (the token: in both stores). */
  set(key: Key, value: string | null): void {
    if (key === 'token') {
      write(session, KEYS.token, null);
      write(local, KEYS.token, value);
      return;
    }
    write(local, KEYS[key], value);
  },
  /** A new session token: kept across browser restarts only when remembered. */
  setToken(token: string, remember: boolean): void {
    write(session, KEYS.token, remember ? null : token);
    write(local, KEYS.token, remember ? token : null);
  },
  /** Whether the current token is a remembered one (a replacement token keeps the choice). */
  isTokenRemembered(): boolean {
    return read(session, KEYS.token) === null && read(local, KEYS.token) !== null;
  },
};
