import { Stack, Title } from '@mantine/core';
import { usePageTitle } from '../../../../ui/page-title';
import { useStaffT } from '../../i18n';
import { MacroList } from './macro-list';

/** The administration's section of the portal's shared macros (issue 28 item 6). */
export default function MacrosPage() {
  const { t } = useStaffT();
  usePageTitle(t('admin.sections.macros'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.macros')}
      </Title>
      <MacroList scope="shared" />
    </Stack>
  );
}
