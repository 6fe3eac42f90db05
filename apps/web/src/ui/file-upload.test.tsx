import { act, fireEvent, render, screen, waitFor, cleanup } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, beforeEach, describe, expect, it, vi, afterEach } from 'vitest';
import { i18n } from '../i18n';
import { ApiRequestError } from '../lib/api-client';
import { TenantContext } from '../lib/tenant';
import { contact, user } from '../test/fixtures';
import { FileUpload, useFileUploads } from './file-upload';

type Pending = {
  file: File;
  progress: (f: number) => void;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
};
const pending: Pending[] = [];
const ids = () => screen.getByTestId('ids').textContent;

vi.mock('../lib/api-client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../lib/api-client')>();
  return {
    ...actual,
    upload: vi.fn(
      (_url: string, file: File, progress: (f: number) => void) =>
        new Promise((resolve, reject) => pending.push({ file, progress, resolve, reject })),
    ),
  };
});

function Harness() {
  const uploads = useFileUploads('/api/demo/1/documents/upload');
  return (
    <>
      <output data-testid="ids">{uploads.uploadedIds.join(',')}</output>
      <FileUpload uploads={uploads} label="Attachments" />
      <button type="button" onClick={uploads.clear}>
        clear
      </button>
    </>
  );
}

function pick(names: string[]) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  const files = names.map((n) => new File(['x'.repeat(2048)], n, { type: 'application/octet-stream' }));
  fireEvent.change(input, { target: { files } });
}

afterEach(cleanup);

describe('FileUpload', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-EN');
  });
  beforeEach(() => {
    pending.length = 0;
    render(
      <MantineProvider>
        <Harness />
      </MantineProvider>,
    );
  });

  it('uploads each picked file with its own progress bar and reports the ids', async () => {
    pick(['a.pdf', 'b.png']);
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(screen.getByLabelText('Attachments')).toBeTruthy();
    act(() => pending[0]!.progress(0.5));
    const bar = screen.getByRole('progressbar', { name: 'Upload of a.pdf' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByRole('progressbar', { name: 'Upload of b.png' }).getAttribute('aria-valuenow')).toBe(
      '0',
    );
    await act(async () => {
      pending[0]!.resolve({ id: 11, url: '/api/files/11/a.pdf' });
      pending[1]!.resolve({ id: 12, url: '/api/files/12/b.png' });
    });
    await waitFor(() => expect(ids()).toBe('11,12'));
  });

  it('shows a 413 as "too large" and keeps the failed file out of the ids', async () => {
    pick(['huge.zip']);
    await waitFor(() => expect(pending).toHaveLength(1));
    await act(async () => pending[0]!.reject(new ApiRequestError(413, 'payload_too_large', 'too big')));
    expect((await screen.findByRole('alert')).textContent).toBe('The file is too large.');
    expect(ids()).toBe('');
  });

  it('removes a file before sending and clears all of them', async () => {
    pick(['a.pdf', 'b.pdf']);
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => {
      pending[0]!.resolve({ id: 1, url: 'u1' });
      pending[1]!.resolve({ id: 2, url: 'u2' });
    });
    await waitFor(() => expect(ids()).toBe('1,2'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.pdf' }));
    await waitFor(() => expect(ids()).toBe('2'));
    expect(screen.queryByText('a.pdf')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'clear' }));
    await waitFor(() => expect(screen.queryByText('b.pdf')).toBeNull());
    expect(ids()).toBe('');
  });
});

describe('FileUpload, under a signed-in contact', () => {
  afterEach(() => i18n.changeLanguage('en-EN'));

  it('states the server’s upload limit and writes sizes the language’s way', async () => {
    const { loadAllLanguages } = await import('../i18n');
    await loadAllLanguages();
    await i18n.changeLanguage('it-IT');
    const c = contact({ contactId: 11 });
    const tenant = {
      company: 'demo',
      contactId: 11,
      contact: c,
      user: user([c], { maxUploadBytes: 2.5 * 1024 * 1024 }),
      basePath: '/demo/11',
    };
    render(
      <MantineProvider>
        <TenantContext.Provider value={tenant}>
          <Harness />
        </TenantContext.Provider>
      </MantineProvider>,
    );
    expect(screen.getByTestId('upload-limit').textContent).toBe('File fino a 2,5 MB ciascuno');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const big = new File(['x'.repeat(1.5 * 1024 * 1024)], 'big.bin', { type: 'application/octet-stream' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('1,5 MB')).toBeTruthy();
  });
});
