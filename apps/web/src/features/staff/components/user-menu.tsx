import { useState } from 'react';
import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconKeyboard, IconLogout, IconSettings, IconUserCircle } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useStaffLogout } from '../api/session';
import { useStaffT } from '../i18n';
import { PreferencesDialog } from '../preferences/preferences-dialog';
import { initial } from '../desk-context';
import { staffPath } from '../staff-paths';
import classes from '../staff.module.css';

/**
 * The agent's menu in the desk's header: who is signed in, the shortcuts' help, preferences, sign-out
 * (its own chunk, after the inbox's first paint: staff-shell.tsx draws its button until then).
 */
export function UserMenu({ name, email, onHelp }: { name: string; email: string; onHelp: () => void }) {
  const { t } = useStaffT();
  const { company = '' } = useParams();
  const navigate = useNavigate();
  const logout = useStaffLogout();
  const [prefsOpen, setPrefsOpen] = useState(false);
  return (
    <>
      <PreferencesDialog opened={prefsOpen} onClose={() => setPrefsOpen(false)} />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton className={classes.userButton} aria-label={t('shell.userMenu', { name })}>
            <Avatar radius="xl" size={30} color="gray" variant="filled" aria-hidden>
              {initial(name)}
            </Avatar>
            <span className={classes.userName} aria-hidden>
              {name}
            </span>
            <IconChevronDown size={14} aria-hidden />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{email}</Menu.Label>
          <Menu.Item leftSection={<IconKeyboard size={16} aria-hidden />} onClick={onHelp}>
            {t('shortcuts.title')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconUserCircle size={16} aria-hidden />}
            onClick={() => void navigate(staffPath(company, 'profile'))}
          >
            {t('profile.title')}
          </Menu.Item>
          <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={() => setPrefsOpen(true)}>
            {t('preferences.title')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() =>
              logout.mutate(undefined, {
                onSettled: () => void navigate(staffPath(company, 'login'), { replace: true }),
              })
            }
          >
            {t('shell.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
