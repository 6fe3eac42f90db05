/**
 * Drafts kept in the browser until sent (issue 16): what a user types in a reply or a new ticket
 * survives a reload, a crash or an expired session. One localStorage entry per user, portal, contact and
 * ticket (`new` for the new-ticket form), so another user of the browser, or another contact, never
 * sees it. An explicit logout removes every draft of the browser (a shared computer keeps nothing).
 */
import { useCallback, useEffect, useRef, useState } from 'react';

const PREFIX = 'draft:';
/** A draft older than this is dropped when read: a month-old half-sentence helps nobody. */
const MAX_AGE_MS = 30 * 24 * 3600_000;

export interface DraftScope {
  userId: number;
  company: string;
  contactId: number;
}

export const draftKey = (s: DraftScope, ticket: number | 'new') =>
  `${PREFIX}${s.userId}:${s.company.toLowerCase()}:${s.contactId}:${ticket}`;

export function readDraft<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const { at, value } = JSON.parse(raw) as { at: number; value: T };
    if (typeof at !== 'number' || Date.now() - at > MAX_AGE_MS) {
      localStorage.removeItem(key);
      return null;
    }
    return value;
  } catch {
    return null;
  }
}

export function writeDraft<T>(key: string, value: T | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify({ at: Date.now(), value }));
  } catch {
    // Storage full or private mode: the form still works, only without a draft.
  }
}

/** Removes every draft of this browser (logout). */
export function clearAllDrafts(): void {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (k?.startsWith(PREFIX)) localStorage.removeItem(k);
    }
  } catch {
    // Nothing to clear.
  }
}

/**
 * A form value kept as a draft: starts from the stored draft (else `initial`), is written back on every
 * change, and `clear()` forgets it (after sending). `isEmpty` says which values are not worth keeping.
 */
export function useDraft<T>(
  key: string,
  initial: T,
  isEmpty: (v: T) => boolean,
): { value: T; setValue: (v: T) => void; clear: () => void; restored: boolean } {
  const [state, setState] = useState(() => {
    const stored = readDraft<T>(key);
    return { value: stored ?? initial, restored: stored !== null && !isEmpty(stored) };
  });
  // `isEmpty` and `initial` are fixed per form (module-level values): the first ones are kept.
  const isEmptyRef = useRef(isEmpty);
  const initialRef = useRef(initial);
  useEffect(() => {
    writeDraft(key, isEmptyRef.current(state.value) ? null : state.value);
  }, [key, state.value]);
  const setValue = useCallback((value: T) => setState((s) => ({ ...s, value })), []);
  const clear = useCallback(() => {
    writeDraft(key, null);
    setState({ value: initialRef.current, restored: false });
  }, [key]);
  return { value: state.value, setValue, clear, restored: state.restored };
}
