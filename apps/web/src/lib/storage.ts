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

export const storage = {
  get(key: Key): string | null {
    try {
      return localStorage.getItem(KEYS[key]);
    } catch {
      return null;
    }
  },
  set(key: Key, value: string | null): void {
    try {
      if (value === null) localStorage.removeItem(KEYS[key]);
      else localStorage.setItem(KEYS[key], value);
    } catch {
      // Private mode or storage full: the app still works for this tab.
    }
  },
};
