import { Component, type ReactNode } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What an error while drawing a page leaves on screen: a translated message and a reload. */
function AppError() {
  const { t } = useTranslation();
  return (
    <Stack component="main" align="center" justify="center" mih="100dvh" p="md" role="alert">
      <Title order={1}>{t('common.errors.unknown')}</Title>
      <Text>{t('common.loadError')}</Text>
      <Button onClick={() => window.location.reload()}>{t('common.retry')}</Button>
    </Stack>
  );
}

interface Props {
  /** A new value (the next navigation) clears the error and draws the page again. */
  resetKey: string;
  children: ReactNode;
}

/**
 * The app's error boundary (app.tsx): a page whose code failed to load (a stale deploy, the network gone)
 * or that threw while drawing shows a message instead of an empty page.
 */
export class AppErrorBoundary extends Component<Props, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromProps(props: Props, state: { key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error !== null ? <AppError /> : this.props.children;
  }
}
