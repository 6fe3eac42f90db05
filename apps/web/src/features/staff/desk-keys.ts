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

/**
 * Single-key shortcuts of the desk (j/k move, Enter open, / search, r reply, a assign, ? help). They
 * never fire while the agent types; `Enter` is left to the focused element when that is a control.
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
