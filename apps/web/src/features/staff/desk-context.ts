import { createContext, useContext } from 'react';
import type { StaffMeAnswer, StaffPortal } from '@sportello/contracts';

/** The signed-in agent in the portal of the URL: what every desk page works in. */
export interface Desk {
  /** The portal key as the server spells it (`{company}` of the staff routes). */
  company: string;
  portal: StaffPortal;
  me: StaffMeAnswer;
  /** Opens the keyboard-shortcut help (also `?`). */
  showShortcuts: () => void;
}

export const DeskContext = createContext<Desk | null>(null);
/**
 * The portal the desk works in, known before the agent is: its key (the server's spelling once it has
 * said who the agent is, the address's before) and its time zone (null until its settings are here). The
 * inbox draws with it while `/api/staff/me` is on its way (staff-shell.tsx).
 */
export interface DeskPortal {
  company: string;
  timeZone: string | null;
}
export const DeskPortalContext = createContext<DeskPortal | null>(null);

export function useDesk(): Desk {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk() used outside the staff desk layout');
  return desk;
}

/** The desk's portal, available before `useDesk()` is (DeskPortalContext). */
export function useDeskPortal(): DeskPortal {
  const portal = useContext(DeskPortalContext);
  if (!portal) throw new Error('useDeskPortal() used outside the staff desk layout');
  return portal;
}

/** The first letter of a name, for an avatar. */
export const initial = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

/** The first letters of a name's first two words ("Sara Conti": "SC"), for an agent without a photo. */
export const initials = (name: string) =>
  name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map(initial)
    .join('') || '?';
