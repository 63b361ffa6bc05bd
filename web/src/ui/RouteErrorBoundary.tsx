// Catches a screen that failed to render or load (e.g. a stale chunk after a deploy) and offers a reload.
import { Button, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { i18n } from '../i18n';
import { removeFirstPaint } from '../prerender/remove-first-paint';

interface State {
  error: Error | null;
}

export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    // Navigating elsewhere gives the next screen a fresh start.
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Screen failed to render', error, info.componentStack);
    // The error must not stay hidden under the server's first paint of the screen.
    removeFirstPaint();
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Stack align="center" gap="sm" py={64} px="md" ta="center" role="alert" data-testid="screen-error">
        <Title order={2}>{i18n.t('screenError.title')}</Title>
        <Text c="var(--pluma-muted)" maw={420}>
          {i18n.t('screenError.body')}
        </Text>
        <Button onClick={() => window.location.reload()}>{i18n.t('screenError.reload')}</Button>
      </Stack>
    );
  }
}

/** For optional pieces (shell widgets): on failure they disappear instead of showing an error page. */
export class RouteErrorBoundaryQuiet extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Shell widget failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? null : this.props.children;
  }
}
