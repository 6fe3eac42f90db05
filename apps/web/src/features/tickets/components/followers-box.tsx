import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/error-text';
import { MultiSelectFilter } from '../../../ui/multi-select-filter';
import { useFollowers, useSetFollowers } from '../api/following';

/**
 * Colleagues following the ticket (issue 16): they may open it and get its e-mails. The list is the
 * server's; each change sends the whole set.
 */
export function FollowersBox({
  company,
  contactId,
  ticketId,
  canEdit,
}: {
  company: string;
  contactId: number;
  ticketId: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const query = useFollowers(company, contactId, ticketId);
  const save = useSetFollowers(company, contactId, ticketId);
  const followers = query.data?.followers ?? [];
  // Not loaded (or not loadable): the box waits rather than saying there are none.
  if (!query.data) return null;
  const options = [...followers, ...(query.data?.candidates ?? [])].map((c) => ({
    value: c.webUserId,
    text: c.referentName,
  }));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="followers-title" data-testid="followers">
      <Stack gap="xs">
        <Title order={2} size="h4" id="followers-title">
          {t('following.followersTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('following.followersHelp')}
        </Text>
        {canEdit && options.length > 0 ? (
          <MultiSelectFilter<number>
            label={t('following.followersPick')}
            emptyText={t('following.followersPickNone')}
            options={options}
            value={followers.map((f) => f.webUserId)}
            onChange={(ids) => save.mutate(ids)}
            countWords={{ one: t('following.followerOne'), other: t('following.followerOther') }}
            nullable
          />
        ) : null}
        {followers.length > 0 ? (
          <Text size="sm" data-testid="followers-list">
            {followers.map((f) => f.referentName).join(', ')}
          </Text>
        ) : (
          <Text size="sm">{t('following.followersNone')}</Text>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {t('following.followersError', { reason: errorText(save.error, t) })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
