import { useState } from 'react';
import { Button, Group, Paper, Rating, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketRating } from '@sportello/contracts';
// From its zod-free file: the ticket page loads no schema.
import { TICKET_RATING_COMMENT_MAX } from '@sportello/contracts/ticket-limits';
import { errorText } from '../../../lib/error-text';
import { useRateTicket } from '../api/following';
import { notifySuccess } from '../notify';

/**
 * The rating of a closed ticket: 1 to 5 and a comment, once per ticket and changeable (issue 16). The
 * back office hears of each rating as a `ticket.rated` event.
 */
export function RatingBox({
  company,
  contactId,
  ticketId,
  rating,
  canRate,
}: {
  company: string;
  contactId: number;
  ticketId: number;
  rating: TicketRating | null;
  canRate: boolean;
}) {
  const { t } = useTranslation();
  const [isEditing, setIsEditing] = useState(rating === null);
  const [value, setValue] = useState(rating?.rating ?? 0);
  const [comment, setComment] = useState(rating?.comment ?? '');
  const rate = useRateTicket(company, contactId, ticketId);
  const [tried, setTried] = useState(false);

  const send = () => {
    setTried(true);
    if (value < 1) return;
    rate.mutate(
      { rating: value, comment },
      {
        onSuccess: () => {
          setIsEditing(false);
          notifySuccess(t('following.ratingSent'), t);
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="rating-title" data-testid="rating-box">
      <Stack gap="sm">
        <Title order={2} size="h4" id="rating-title">
          {t('following.ratingTitle')}
        </Title>
        {!isEditing && rating ? (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Stack gap={4}>
              <Group gap="xs">
                <Rating value={rating.rating} readOnly aria-hidden />
                <Text size="sm" data-testid="rating-value">
                  {t('following.ratingValue', { rating: rating.rating })}
                </Text>
              </Group>
              {rating.comment && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {rating.comment}
                </Text>
              )}
            </Stack>
            {canRate && (
              <Button size="xs" variant="default" onClick={() => setIsEditing(true)}>
                {t('following.ratingChange')}
              </Button>
            )}
          </Group>
        ) : canRate ? (
          <>
            <Text size="sm">{t('following.ratingAsk')}</Text>
            <Rating
              value={value}
              onChange={setValue}
              size="lg"
              aria-label={t('following.ratingLabel')}
              getSymbolLabel={(i) => t('following.ratingStars', { count: i })}
            />
            {tried && value < 1 && (
              <Text size="sm" c="red.8" role="alert">
                {t('following.ratingRequired')}
              </Text>
            )}
            <Textarea
              label={t('following.ratingComment')}
              value={comment}
              onChange={(e) => setComment(e.currentTarget.value)}
              maxLength={TICKET_RATING_COMMENT_MAX}
              rows={3}
            />
            {rate.isError && (
              <Text size="sm" c="red.8" role="alert">
                {t('following.ratingError', { reason: errorText(rate.error, t) })}
              </Text>
            )}
            <Group justify="flex-end">
              <Button onClick={send} loading={rate.isPending}>
                {t('following.ratingSend')}
              </Button>
            </Group>
          </>
        ) : (
          <Text size="sm">{t('following.ratingNone')}</Text>
        )}
      </Stack>
    </Paper>
  );
}
