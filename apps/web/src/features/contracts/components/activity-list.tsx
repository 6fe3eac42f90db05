import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconMapPin, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContractActivity } from '@sportello/contracts';
import { formatDateTime } from '../../../lib/format';
import { downloadUrl } from '../../../ui/file-preview';
import { activityAddress } from '../contract-rules';
import classes from './contracts.module.css';

/** The activities of a contract or package: type, date, report download, performing user, address. */
export function ActivityList({ activities }: { activities: ContractActivity[] }) {
  const { t } = useTranslation();
  if (activities.length === 0)
    return (
      <Text size="sm" c="gray.7">
        {t('contracts.noActivities')}
      </Text>
    );
  return (
    <ul className={classes.activities} aria-label={t('contracts.activities')}>
      {activities.map((a) => {
        const address = activityAddress(a);
        return (
          <li key={a.id} className={classes.activity} data-testid="contract-activity">
            <Stack gap={2}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text fw={600} size="sm">
                  {a.activityTypeName}
                </Text>
                <Text size="sm">{formatDateTime(a.start)}</Text>
              </Group>
              <Group gap="md" wrap="wrap" fz="sm">
                {a.assignedUser && (
                  <Group gap={4} wrap="nowrap">
                    <IconUser size={14} aria-hidden />
                    <Text size="sm" span>
                      <span className={classes.visuallyHidden}>{t('contracts.performedBy')} </span>
                      {a.assignedUser}
                    </Text>
                  </Group>
                )}
                {address && (
                  <Group gap={4} wrap="nowrap">
                    <IconMapPin size={14} aria-hidden />
                    <Text size="sm" span>
                      {address}
                    </Text>
                  </Group>
                )}
                {a.reportDocumentUrl && (
                  <Anchor href={downloadUrl(a.reportDocumentUrl)} size="sm" download>
                    <Group gap={4} wrap="nowrap" component="span">
                      <IconDownload size={14} aria-hidden />
                      {t('contracts.downloadReport')}
                    </Group>
                  </Anchor>
                )}
              </Group>
            </Stack>
          </li>
        );
      })}
    </ul>
  );
}
