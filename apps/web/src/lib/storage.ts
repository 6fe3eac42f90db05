/** The keys of SPEC B6, in one place. */
const KEYS = { token: 'token', language: 'language', company: 'company', contactId: 'contactId' } as const;
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
