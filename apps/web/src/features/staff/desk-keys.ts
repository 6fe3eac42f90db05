import { useEffect, useRef } from 'react';

/** A key of the desk's shortcuts: `event.key` as typed (`j`, `/`, `?`, `Enter`). */
export type DeskKeyMap = Partial<Record<string, (event: KeyboardEvent) => void>>;

/**
 * Whether a key press belongs to what has the focus rather than to the desk: typing in a field or the
 * editor, a modifier chord (the browser's and the system's shortcuts), or an open dialog or menu.
 */
export function isForTheFocus(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || event.isComposing)
    return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest?.('input, textarea, select, [contenteditable=""], [contenteditable="true"]'))
    return true;
  if (target?.closest?.('[role="dialog"], [role="menu"], [role="listbox"]')) return true;
  return false;
}

/*
 * Alt+M (the key's place, so a Mac's Option+M too) opens the macro picker on a ticket's page even while
 * the agent types in the reply editor, where `m` is typed: `useMacroShortcut` (components/macro-picker.tsx).
 */

/**
 * Single-key shortcuts of the desk (j/k move, Enter open, / search, r reply, n note, m macro, a assign,
 * ? help; every one listed in components/shortcuts-help.tsx). They never fire while the agent types;
 * `Enter` is left to the focused element when that is a control.
 */
export function useDeskKeys(keys: DeskKeyMap): void {
  const current = useRef(keys);
  // The newest handlers, without re-adding the listener on every render.
  useEffect(() => {
    current.current = keys;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isForTheFocus(event)) return;
      const handler = current.current[event.key];
      if (!handler) return;
      if (event.key === 'Enter') {
        const target = event.target as HTMLElement | null;
        if (target?.closest?.('a, button, [role="button"], [role="tab"]')) return;
      }
      event.preventDefault();
      handler(event);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
