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

export function useDesk(): Desk {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk() used outside the staff desk layout');
  return desk;
}

/** The first letter of a name, for an avatar. */
export const initial = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';
