import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { dayjs } from '../lib/dates';
import { DateRangePicker } from './date-range-picker';
import { presetRange, type DateRange } from './date-range';
import { renderWithProviders } from './testing';

function Harness({ initial, onChange }: { initial: DateRange; onChange: (v: DateRange) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <DateRangePicker
      label="Period"
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

// Role queries over a two-month calendar are slow in jsdom: find buttons by their text or label.
const button = (text: string) => screen.getByText(text).closest('button')!;
const day = (label: string) => document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!;
const typeDate = (input: HTMLElement, text: string) => {
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
};

const fmt = (d: Date | null) => (d ? dayjs(d).format('DD/MM/YYYY HH:mm:ss') : null);

describe('DateRangePicker', { timeout: 20_000 }, () => {
  it("shows 'No date filter' when empty and the chosen range as DD MMM YYYY", async () => {
    dayjs.locale('en');
    const onChange = vi.fn();
    renderWithProviders(<Harness initial={{ start: null, end: null }} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Period/ });
    expect(trigger.textContent).toContain('No date filter');
    await userEvent.click(trigger);
    await userEvent.click(button('Last year'));
    const last = presetRange('lastYear');
    expect(onChange).toHaveBeenCalledWith(last);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger.textContent).toContain(
      `01 Jan ${last.start.getFullYear()} – 31 Dec ${last.start.getFullYear()}`,
    );
  });

  it('highlights the preset matching the value and clears to null', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial={presetRange('currentMonth')} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: /Period/ }));
    expect(button('Current month').getAttribute('aria-pressed')).toBe('true');
    expect(button('Today').getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(button('Clear'));
    expect(onChange).toHaveBeenLastCalledWith({ start: null, end: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('reads typed dates, swaps them and ends the range at 23:59:59', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial={{ start: null, end: null }} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: /Period/ }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    typeDate(to, '03/11/2026');
    expect(fmt(onChange.mock.lastCall?.[0].end)).toBe('03/11/2026 23:59:59');
    // Only one end is set: a single-month calendar is shown.
    expect(document.querySelectorAll('table').length).toBe(1);
    typeDate(from, '09/11/2026');
    const v = onChange.mock.lastCall?.[0] as DateRange;
    expect([fmt(v.start), fmt(v.end)]).toEqual(['03/11/2026 00:00:00', '09/11/2026 23:59:59']);
    // Complete range: two months side by side.
    await waitFor(() => expect(document.querySelectorAll('table').length).toBe(2));
  });

  it('turns an invalid typed date into null', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness initial={presetRange('today')} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: /Period/ }));
    typeDate(screen.getByLabelText('From'), '31/02/2026');
    expect(onChange.mock.lastCall?.[0].start).toBeNull();
    expect(onChange.mock.lastCall?.[0].end).not.toBeNull();
  });

  it('closes on Escape and opens by itself with autoOpen', async () => {
    renderWithProviders(
      <DateRangePicker value={{ start: null, end: null }} onChange={() => {}} autoOpen hideLabel />,
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.keyDown(screen.getByLabelText('From'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('emits a picked calendar range with the end at 23:59:59', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <Harness initial={{ start: new Date(2026, 10, 2), end: new Date(2026, 10, 4) }} onChange={onChange} />,
    );
    await userEvent.click(screen.getByRole('button', { name: /Period/ }));
    await userEvent.click(day('10 November 2026'));
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.click(day('6 November 2026'));
    const v = onChange.mock.lastCall?.[0] as DateRange;
    expect([fmt(v.start), fmt(v.end)]).toEqual(['06/11/2026 00:00:00', '10/11/2026 23:59:59']);
  });
});
