import { useMemo } from 'react';
import { Alert, Anchor, Box, Card, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { lazyPage } from '../../../ui/lazy-page';
import { usePageTitle } from '../../../ui/page-title';
import { useDesk } from '../desk-context';
import { useStaffT } from '../i18n';
import { staffPath } from '../staff-paths';
import { ADMIN_SECTIONS } from './admin-sections';
import classes from './admin.module.css';

/** Each section's page, in its own chunk (made once, at module load, so React keeps its identity). */
const PAGES = ADMIN_SECTIONS.map((s) => ({ ...s, Page: lazyPage(s.load) }));

/** `/{portal}/staff/admin/{section}` for a section's key and an optional rest of the address. */
export const adminPath = (company: string, section: string, rest = '') =>
  staffPath(company, `admin/${section}${rest ? `/${rest}` : ''}`);

/**
 * The administration of a portal (`/{portal}/staff/admin/…`): a menu of the sections beside the
 * section's page (a select above it on a phone). Only the portal's admins see it; the server refuses
 * an agent every admin call anyway (the access matrix), this only spares them a page of errors.
 */
export default function AdminArea() {
  const { t } = useStaffT();
  const desk = useDesk();
  if (desk.portal.role !== 'admin')
    return (
      <Stack maw={560} mx="auto" py="xl">
        <Title order={1} size="h2">
          {t('admin.title')}
        </Title>
        <Alert color="yellow" variant="light" role="alert">
          {t('admin.notAdmin')}
        </Alert>
      </Stack>
    );
  return (
    <Box className={classes.layout}>
      <AdminMenu />
      <Box className={classes.page}>
        <Routes>
          <Route index element={<AdminHome />} />
          {PAGES.map(({ key, path, Page }) => (
            <Route key={key} path={`${path}/*`} element={<Page />} />
          ))}
          <Route path="*" element={<AdminHome />} />
        </Routes>
      </Box>
    </Box>
  );
}

function AdminMenu() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const location = useLocation();
  const navigate = useNavigate();
  // The select's options are the sections' paths (a key and its path may differ: ticketSetup).
  const current = useMemo(
    () =>
      ADMIN_SECTIONS.find((s) =>
        location.pathname.toLowerCase().startsWith(adminPath(company, s.path).toLowerCase()),
      )?.path ?? '',
    [location.pathname, company],
  );
  return (
    <>
      <nav className={classes.menu} aria-label={t('admin.menu')}>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pb={4}>
          {t('admin.title')}
        </Text>
        {ADMIN_SECTIONS.map((s) => (
          <NavLink key={s.key} to={adminPath(company, s.path)} className={classes.menuLink}>
            {t(`admin.sections.${s.key}`)}
          </NavLink>
        ))}
      </nav>
      <NativeSelect
        className={classes.menuSelect}
        label={t('admin.menu')}
        value={current}
        onChange={(e) =>
          void navigate(
            e.currentTarget.value ? adminPath(company, e.currentTarget.value) : staffPath(company, 'admin'),
          )
        }
        data={[
          { value: '', label: t('admin.home') },
          ...ADMIN_SECTIONS.map((s) => ({ value: s.path, label: t(`admin.sections.${s.key}`) })),
        ]}
      />
    </>
  );
}

/** The start page: every section with one line on what it is for. */
function AdminHome() {
  const { t } = useStaffT();
  const { company, portal } = useDesk();
  usePageTitle(t('admin.title'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.titleOf', { portal: portal.webPortalName })}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {ADMIN_SECTIONS.map((s) => (
          <Card key={s.key} withBorder padding="md">
            <Anchor component={Link} to={adminPath(company, s.path)} fw={600}>
              {t(`admin.sections.${s.key}`)}
            </Anchor>
            <Text size="sm" c="dimmed" mt={4}>
              {t(`admin.sections.${s.key}Hint`)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
