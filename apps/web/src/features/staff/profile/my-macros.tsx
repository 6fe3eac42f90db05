import { MacroList } from '../admin/macros/macro-list';

/** The agent's own macros, below their profile (issue 28 item 6). */
export function MyMacros() {
  return <MacroList scope="mine" />;
}
