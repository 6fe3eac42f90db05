import { NavLink as MantineNavLink, Stack, VisuallyHidden } from '@mantine/core';
import {
  IconCalendarRepeat,
  IconClockHour4,
  IconFileInvoice,
  IconLayoutDashboard,
  IconFileText,
  IconFiles,
  IconFolderShare,
  IconBook2,
  IconReportAnalytics,
  IconTicket,
  IconListDetails,
  IconReceipt,
  type Icon,
} from '@tabler/icons-react';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, useMatch } from 'react-router';
import { publicFilesQuery } from '../../features/documents/api/public-files';
import { useTenant } from '../../lib/tenant';
import { useTimeSliced } from '../../lib/time-sliced';
import { menuItems, type MenuItem, type MenuKey } from '../sections';

const ICONS: Record<MenuKey, Icon> = {
  overview: IconLayoutDashboard,
  myTickets: IconTicket,
  allTickets: IconListDetails,
  contracts: IconFileText,
  hourContracts: IconClockHour4,
  subscriptions: IconCalendarRepeat,
  reports: IconReportAnalytics,
  wiki: IconBook2,
  estimates: IconReceipt,
  invoices: IconFileInvoice,
  companyFiles: IconFiles,
  publicFiles: IconFolderShare,
};

/** The menu of SPEC A2 by permission. react-router's NavLink marks the current page with aria-current. */
export function MainMenu() {
  const { t } = useTranslation();
  const { contact, company, basePath } = useTenant();
  // Shares its cache with the public files page; the item shows only when the list has files (A2). Its
  // answer comes after the first screen's content: rendered in slices (lib/time-sliced), and the query's
  // own synchronous update draws no link again (the list is kept), where it drew the whole menu at once.
  const publicFiles = useTimeSliced(useQuery(publicFilesQuery(company)));
  const hasFiles = (publicFiles.data?.length ?? 0) > 0;
  const list = useMemo(
    () => (
      <Stack gap={2} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {menuItems(contact, hasFiles).map((item) => (
          <li key={item.key}>
            <MenuLink
              item={item}
              to={`${basePath}/${item.section}`}
              label={item.key === 'overview' ? t('overview.menu') : t(`menu.${item.key}`)}
            />
          </li>
        ))}
      </Stack>
    ),
    [contact, hasFiles, basePath, t],
  );
  return (
    <>
      <VisuallyHidden id="main-menu-label">{t('layout.navigation')}</VisuallyHidden>
      {list}
    </>
  );
}

function MenuLink({ item, to, label }: { item: MenuItem; to: string; label: string }) {
  // My tickets stays lit on a ticket of the list and on 'new ticket'.
  const isActive = !!useMatch({ path: to, end: false });
  const Icon = ICONS[item.key];
  return (
    <MantineNavLink
      component={NavLink}
      to={to}
      label={label}
      active={isActive}
      leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
      data-menu={item.key}
    />
  );
}
