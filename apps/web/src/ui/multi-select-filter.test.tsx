import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MultiSelectFilter, multiSelectSummary } from './multi-select-filter';
import { SelectFilter } from './select-filter';
import { renderWithProviders } from './testing';

const options = [
  { value: 1, text: 'Anna', group: 'Sales' },
  { value: 2, text: 'Bruno', group: 'Sales' },
  { value: 3, text: 'Carla', group: 'Support' },
];

function Harness({ onChange, nullable = true }: { onChange: (v: number[]) => void; nullable?: boolean }) {
  const [value, setValue] = useState<number[]>([]);
  return (
    <MultiSelectFilter
      label="Users"
      options={options}
      value={value}
      nullable={nullable}
      countWords={{ one: 'user', other: 'users' }}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe('multiSelectSummary', () => {
  const words = { one: 'user', other: 'users' };
  it('counts with singular and plural words, or uses a custom label', () => {
    expect(multiSelectSummary([], words, 'No filter')).toBe('No filter');
    expect(multiSelectSummary(options.slice(0, 1), words, 'No filter')).toBe('1 user');
    expect(multiSelectSummary(options, words, 'No filter')).toBe('3 users');
    expect(multiSelectSummary(options, words, 'No filter', (s) => s.map((o) => o.text).join(', '))).toBe(
      'Anna, Bruno, Carla',
    );
  });
});

describe('MultiSelectFilter', { timeout: 20_000 }, () => {
  it('toggles values on click, groups them under headings and clears all', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: /Users/ });
    expect(trigger.textContent).toContain('No filter');
    await userEvent.click(trigger);
    expect(screen.getByText('Sales')).toBeTruthy();
    expect(screen.getByText('Support')).toBeTruthy();
    await userEvent.click(screen.getByRole('option', { name: 'Anna' }));
    await userEvent.click(screen.getByRole('option', { name: 'Carla' }));
    expect(onChange).toHaveBeenLastCalledWith([1, 3]);
    expect(trigger.textContent).toContain('2 users');
    expect(screen.getByRole('option', { name: 'Anna' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('option', { name: 'Anna' }));
    expect(onChange).toHaveBeenLastCalledWith([3]);
    expect(trigger.textContent).toContain('1 user');
    await userEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('filters the options with its search box and offers no clear-all when not nullable', async () => {
    renderWithProviders(<Harness onChange={() => {}} nullable={false} />);
    await userEvent.click(screen.getByRole('button', { name: /Users/ }));
    fireEvent.change(screen.getByPlaceholderText('Search'), { target: { value: 'car' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Carla']);
    fireEvent.change(screen.getByPlaceholderText('Search'), { target: { value: 'zzz' } });
    expect(screen.getByText('No options')).toBeTruthy();
    await userEvent.click(document.body);
    expect(screen.queryByRole('button', { name: 'Clear all' })).toBeNull();
  });

  it('toggles the highlighted option with Enter', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: /Users/ }));
    const search = screen.getByPlaceholderText('Search');
    fireEvent.keyDown(search, { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith([1]);
  });
});

describe('SelectFilter', () => {
  it("shows 'No filter' when empty and clears to null when nullable", async () => {
    const onChange = vi.fn();
    const { rerender } = renderWithProviders(
      <SelectFilter
        label="Status"
        options={[{ value: 1, text: 'Active' }]}
        value={null}
        onChange={onChange}
        nullable
      />,
    );
    expect(screen.getByPlaceholderText('No filter')).toBeTruthy();
    rerender(
      <SelectFilter
        label="Status"
        options={[{ value: 1, text: 'Active' }]}
        value={1}
        onChange={onChange}
        nullable
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Clear the filter' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
