import { Kbd, Modal, Table } from '@mantine/core';
import { useStaffT } from '../i18n';

/** Every shortcut of the desk, in one place: the help overlay lists these and the pages bind them. */
export const SHORTCUTS = [
  { keys: ['j'], what: 'shortcuts.next' },
  { keys: ['k'], what: 'shortcuts.previous' },
  { keys: ['Enter'], what: 'shortcuts.open' },
  { keys: ['/'], what: 'shortcuts.search' },
  { keys: ['c'], what: 'shortcuts.newTicket' },
  { keys: ['r'], what: 'shortcuts.reply' },
  { keys: ['n'], what: 'shortcuts.note' },
  { keys: ['m'], what: 'shortcuts.macro' },
  { keys: ['a'], what: 'shortcuts.assign' },
  { keys: ['x'], what: 'shortcuts.select' },
  { keys: ['u'], what: 'shortcuts.back' },
  { keys: ['?'], what: 'shortcuts.help' },
] as const;

export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useStaffT();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('shortcuts.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
      size="md"
    >
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('shortcuts.key')}</Table.Th>
            <Table.Th>{t('shortcuts.action')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {SHORTCUTS.map((s) => (
            <Table.Tr key={s.what}>
              <Table.Td>
                {s.keys.map((k) => (
                  <Kbd key={k}>{k}</Kbd>
                ))}
              </Table.Td>
              <Table.Td>{t(s.what)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
