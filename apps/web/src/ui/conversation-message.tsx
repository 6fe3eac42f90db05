import { lazy, Suspense, type ReactNode } from 'react';
import { Anchor, Avatar, Group, Paper, Text } from '@mantine/core';
import { IconLock, IconMail } from '@tabler/icons-react';
import type { Attachment } from '@sportello/contracts';
import { formatDateTime } from '../lib/format';
import { loadRestStyles } from '../styles/load-rest-styles';
import { AttachmentList } from './attachment-list';
import { SafeHtml } from './safe-html';
import classes from './conversation.module.css';

export interface MessageAuthor {
  name: string;
  /** The current user: shown as 'you', aligned as one's own message. */
  isSelf: boolean;
  isAgent: boolean;
  /** Agent's profile image (signed URL); otherwise the initial shows. */
  imageUrl?: string | null;
  /** The name the avatar's initial comes from when `name` is not one ('You' on one's own messages). */
  initialOf?: string;
}

export interface ConversationMessageProps {
  author: MessageAuthor;
  date: string;
  html: string;
  attachments: Attachment[];
  testId?: string;
  /**
   * Set on a staff desk's internal note: the message gets the note's look and this text says, in
   * words, that the customer does not see it (colour alone would not tell everyone).
   */
  internalLabel?: string;
  /**
   * Set on a message that came by e-mail: a small mail icon whose label says so in words; with `href`
   * (agents only), a link to the message as received ("show full e-mail").
   */
  viaEmail?: { label: string; fullEmail?: { href: string; label: string } | undefined };
  /** A mark shown above the text (the desk's "Sender not verified"). */
  flag?: ReactNode;
}

/**
 * The mail mark's hover label: Mantine's Tooltip brings the Popover family and floating-ui (about 20 KB
 * gzip), which nothing else of a ticket's first screen needs; the mark shows without it until it comes.
 */
const Tooltip = lazy(() => Promise.all([import('./tooltip'), loadRestStyles()]).then(([m]) => m));

const initial = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

/**
 * One message of the conversation: who, when, the sanitised HTML and its attachments. Its layout is plain
 * elements with conversation.module.css rather than Mantine's Group, Stack and Text: a ticket draws many
 * messages on its first screen, and each Mantine component's props and styles cost a slow phone's main
 * thread (issue 30).
 */
export function ConversationMessage({
  author,
  date,
  html,
  attachments,
  testId,
  internalLabel,
  viaEmail,
  flag,
}: ConversationMessageProps) {
  return (
    <Paper
      component="article"
      withBorder
      p="sm"
      radius="md"
      className={internalLabel ? classes.internal : undefined}
      bg={internalLabel ? undefined : author.isSelf ? 'var(--mantine-primary-color-light)' : undefined}
      data-testid={testId}
      data-internal={internalLabel ? true : undefined}
      aria-label={`${internalLabel ? `${internalLabel}: ` : ''}${author.name}, ${formatDateTime(date)}`}
    >
      {internalLabel && (
        <Group gap={6} mb={6} className={classes.internalLabel} data-testid="internal-label">
          <IconLock size={14} aria-hidden />
          <Text size="xs" fw={700} component="span">
            {internalLabel}
          </Text>
        </Group>
      )}
      <div className={classes.row}>
        <Avatar
          src={author.imageUrl ?? undefined}
          alt=""
          radius="xl"
          color={author.isAgent ? 'gray' : 'brand'}
          variant="filled"
          aria-hidden
        >
          {initial(author.initialOf || author.name)}
        </Avatar>
        <div className={classes.body}>
          <div className={classes.meta}>
            <p className={classes.author} data-testid="message-author">
              {author.name}
            </p>
            <div className={classes.when}>
              {viaEmail && <ViaEmail label={viaEmail.label} />}
              <p className={classes.date}>{formatDateTime(date)}</p>
            </div>
          </div>
          {flag}
          <SafeHtml html={html} className={classes.message} fz="sm" data-testid="message-body" />
          <AttachmentList attachments={attachments} />
          {viaEmail?.fullEmail && (
            <Anchor href={viaEmail.fullEmail.href} size="xs" download data-testid="full-email">
              {viaEmail.fullEmail.label}
            </Anchor>
          )}
        </div>
      </div>
    </Paper>
  );
}

/** The mark of a message that came by e-mail, its label in words and, once here, on hover. */
function ViaEmail({ label }: { label: string }) {
  const mark = (
    <Text
      component="span"
      c="dimmed"
      role="img"
      aria-label={label}
      data-testid="via-email"
      style={{ display: 'inline-flex' }}
    >
      <IconMail size={14} aria-hidden />
    </Text>
  );
  return (
    <Suspense fallback={mark}>
      <Tooltip label={label} withinPortal>
        {mark}
      </Tooltip>
    </Suspense>
  );
}
