import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../ui/testing';
import { AppErrorBoundary } from './app-error-boundary';

function Page({ fail }: { fail: boolean }) {
  if (fail) throw new Error('chunk failed');
  return <p>the page</p>;
}

describe('AppErrorBoundary', () => {
  it('shows a message instead of a page that throws, and the next page after a navigation', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = renderWithProviders(
      <AppErrorBoundary resetKey="a">
        <Page fail />
      </AppErrorBoundary>,
      { language: 'it-IT' },
    );
    expect(screen.getByRole('alert').textContent).toContain('Impossibile caricare i dati.');
    expect(screen.getByRole('button', { name: 'Riprova' })).toBeTruthy();
    rerender(
      <AppErrorBoundary resetKey="b">
        <Page fail={false} />
      </AppErrorBoundary>,
    );
    expect(screen.getByText('the page')).toBeTruthy();
    vi.restoreAllMocks();
  });
});
