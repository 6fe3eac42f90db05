import { Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { storage } from '../../lib/storage';
import { useTenant } from '../../lib/tenant';
import { PortalLogo } from '../../ui/portal-logo';
import { contactPath, switcherEntries } from '../sections';
import classes from './shell.module.css';

/**
 * The logo. With more than one contact it opens the company switcher: every other contact as
 * 'companyName portalName'; choosing one goes there and is remembered. With one contact it leads home.
 */
export function CompanySwitcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, contact, basePath } = useTenant();
  const settings = contact.portalSettings;
  const entries = switcherEntries(user, contact);
  const face = (
    <>
      <PortalLogo logoUrl={settings.logoUrl} alt="" />
      <span className={classes.companyName}>{contact.companyName}</span>
    </>
  );
  const label = t('layout.switchCompany', { company: `${contact.companyName} ${settings.webPortalName}` });

  if (entries.length === 0)
    return (
      <UnstyledButton
        component={Link}
        to={basePath}
        className={classes.headerButton}
        aria-label={`${contact.companyName} ${settings.webPortalName}`}
      >
        {face}
      </UnstyledButton>
    );

  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.headerButton} aria-label={label} data-testid="company-switcher">
          {face}
          <IconChevronDown size={16} aria-hidden />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {entries.map(({ contact: c, label: text }) => (
          <Menu.Item
            key={`${c.portalSettings.webPortalKey}/${c.contactId}`}
            onClick={() => {
              storage.set('company', c.portalSettings.webPortalKey);
              storage.set('contactId', String(c.contactId));
              navigate(contactPath(c));
            }}
          >
            {text}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
