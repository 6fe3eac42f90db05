import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FilePreview, downloadUrl, previewKind } from './file-preview';
import { ListStates } from './list-states';
import { renderWithProviders } from './testing';

const url = '/api/files/4/report.pdf?e=1&s=abc';

describe('previewKind', () => {
  it('decides by content type, else by extension', () => {
    expect(previewKind('/f/a.PDF')).toBe('pdf');
    expect(previewKind('/f/photo.jpeg?e=1')).toBe('image');
    expect(previewKind('/f/x.docx')).toBe('other');
    expect(previewKind('/api/files/1/scan.png?e=1&s=2', undefined, 'Report 2026/1 - scan')).toBe('image');
    expect(previewKind('/f/noext', undefined, 'plan.png')).toBe('image');
    expect(previewKind('/f/noext', 'application/pdf')).toBe('pdf');
    expect(previewKind('/f/a.pdf', 'application/zip')).toBe('other');
  });
  it('adds download=1 to a signed URL', () => {
    expect(downloadUrl(url)).toBe(`${url}&download=1`);
  });
});

describe('FilePreview', () => {
  it('shows a pdf in an iframe of the given height, with a Download link', () => {
    renderWithProviders(<FilePreview url={url} name="report.pdf" height={900} />);
    const frame = document.querySelector('iframe')!;
    expect(frame.title).toBe('report.pdf');
    expect(frame.getAttribute('src')).toBe(url);
    expect(frame.style.height).toBe('900px');
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`${url}&download=1`);
  });
  it('shows an image as an image and other files as not previewable', () => {
    const { rerender } = renderWithProviders(<FilePreview url="/f/a.png?e=1" name="a.png" />);
    expect(screen.getByRole('img', { name: 'a.png' })).toBeTruthy();
    rerender(<FilePreview url="/f/a.zip?e=1" name="a.zip" />);
    expect(screen.getByText('Preview not available')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});

describe('ListStates', () => {
  const base = { isPending: false, isError: false, refetch: vi.fn() };
  it('shows a skeleton, an error with Retry, the empty text, or the rows', async () => {
    const { rerender } = renderWithProviders(
      <ListStates query={{ ...base, isPending: true }} isEmpty>
        rows
      </ListStates>,
    );
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    rerender(
      <ListStates query={{ ...base, isError: true }} isEmpty>
        rows
      </ListStates>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(base.refetch).toHaveBeenCalled();
    rerender(
      <ListStates query={base} isEmpty>
        rows
      </ListStates>,
    );
    expect(screen.getByText('No items found')).toBeTruthy();
    rerender(
      <ListStates query={base} isEmpty={false}>
        rows
      </ListStates>,
    );
    expect(screen.getByText('rows')).toBeTruthy();
  });
});
