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
  viewAs: 'viewAs',
} as const;
type Key = Exclude<keyof typeof KEYS, 'viewAs'>;

/** A "see as this contact" session of this tab (a staff admin's read-only view; issue 14). */
export interface ViewAsInfo {
  /** The contact's name. */
  name: string;
  expiresAt: string;
}

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
    // A view tab reads its own token only: never the signed-in customer's of other tabs.
    if (key === 'token' && storage.viewAs()) return read(session, KEYS.token);
    if (key === 'token') return read(session, KEYS.token) ?? read(local, KEYS.token);
    return read(local, KEYS[key]);
  },
  /** A value, or null to forget it (the token: in both stores). */
  set(key: Key, value: string | null): void {
    // A view tab keeps everything to itself: the customer's remembered token and contact stay as they are.
    if (storage.viewAs()) {
      if (key === 'token' && value === null) storage.clearViewAs();
      return;
    }
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
  /**
   * Opens a view in this tab: token and who is shown in sessionStorage only, so it ends with the tab
   * and never replaces a customer's session of the same browser.
   */
  setViewAs(token: string, info: ViewAsInfo): void {
    write(session, KEYS.token, token);
    write(session, KEYS.viewAs, JSON.stringify(info));
  },
  viewAs(): ViewAsInfo | null {
    const raw = read(session, KEYS.viewAs);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as ViewAsInfo;
    } catch {
      return null;
    }
  },
  clearViewAs(): void {
    write(session, KEYS.token, null);
    write(session, KEYS.viewAs, null);
  },
  /** Whether the current token is a remembered one (a replacement token keeps the choice). */
  isTokenRemembered(): boolean {
    return read(session, KEYS.token) === null && read(local, KEYS.token) !== null;
  },
};
