import { MacroList } from './macro-list';

/** The administration's section of the portal's shared macros (issue 28 item 6). */
export default function MacrosPage() {
  return <MacroList scope="shared" />;
}
