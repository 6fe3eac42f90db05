import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AttachmentList, attachmentDisplayName, isImageName } from './attachment-list';

afterEach(cleanup);

describe('attachmentDisplayName (SPEC A2/A9)', () => {
  it('keeps the name as written, not in capitals', () => {
    expect(attachmentDisplayName('Report März.pdf')).toBe('Report März.pdf');
  });

  it('keeps a name of exactly 20 characters whole', () => {
    const name = 'abcdefghijklmnop.pdf';
    expect(name).toHaveLength(20);
    expect(attachmentDisplayName(name)).toBe('abcdefghijklmnop.pdf');
  });

  it('cuts a name longer than 20 characters to 19 plus "..."', () => {
    const name = 'abcdefghijklmnopq.pdf';
    expect(name).toHaveLength(21);
    expect(attachmentDisplayName(name)).toBe('abcdefghijklmnopq.p...');
    expect(attachmentDisplayName('a-very-long-contract-document-name.docx')).toBe('a-very-long-contrac...');
  });

  it('counts characters, not UTF-16 units', () => {
    const name = '😀'.repeat(21);
    expect(attachmentDisplayName(name)).toBe(`${'😀'.repeat(19)}...`);
  });
});

describe('isImageName', () => {
  it.each(['a.jpg', 'a.JPEG', 'b.png', 'c.bmp', 'photo.final.Png'])('%s is an image', (n) => {
    expect(isImageName(n)).toBe(true);
  });
  it.each(['a.gif', 'a.pdf', 'png', 'jpg.txt', 'a.svg'])('%s is not an image', (n) => {
    expect(isImageName(n)).toBe(false);
  });
});

describe('AttachmentList', () => {
  it('shows images as thumbnails and other files as a paperclip with the short name', () => {
    render(
      <MantineProvider>
        <AttachmentList
          attachments={[
            { id: 1, name: 'screenshot.png', url: '/api/files/1/screenshot.png?e=1&s=x' },
            { id: 2, name: 'quarterly-maintenance-report.pdf', url: '/api/files/2/q.pdf?e=1&s=y' },
          ]}
        />
      </MantineProvider>,
    );
    const img = screen.getByRole('img', { name: 'screenshot.png' });
    expect(img.getAttribute('src')).toBe('/api/files/1/screenshot.png?e=1&s=x');
    const link = screen.getByRole('link', { name: 'quarterly-maintenan...' });
    expect(link.getAttribute('href')).toBe('/api/files/2/q.pdf?e=1&s=y');
    expect(link.getAttribute('title')).toBe('quarterly-maintenance-report.pdf');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('renders nothing without attachments', () => {
    const { container } = render(
      <MantineProvider>
        <AttachmentList attachments={[]} />
      </MantineProvider>,
    );
    expect(container.querySelector('[data-testid="attachment-list"]')).toBeNull();
  });
});
