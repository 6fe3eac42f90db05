import { useEffect, useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { StaffSearchAnswer } from '@sportello/contracts';
import { useNavigate } from 'react-router';
import { useStaffT } from '../i18n';
import { staffPath, staffTicketPath } from '../staff-paths';
import { quickSearchQuery } from '../api/search';
import classes from './inbox.module.css';

/** Typing pauses this long before the desk asks (each new word cancels the question before it). */
export const QUICK_SEARCH_DEBOUNCE_MS = 200;

interface Option {
  key: string;
  to: string;
  label: string;
  detail: string;
}

function groupsOf(
  r: StaffSearchAnswer,
  company: string,
  t: ReturnType<typeof useStaffT>['t'],
): { name: string; options: Option[] }[] {
  const base = staffPath(company);
  const groups = [
    {
      name: t('search.tickets'),
      options: r.tickets.map((x) => ({
        key: `t${x.id}`,
        to: staffTicketPath(company, x.id),
        label: `${x.ticketNumber} ${x.title}`,
        detail: [x.company.name, x.contact?.referentName, x.step.name].filter(Boolean).join(' · '),
      })),
    },
    {
      name: t('search.contacts'),
      options: r.contacts.map((c) => ({
        key: `p${c.id}`,
        to: `${base}?view=open&contact=${c.id}`,
        label: c.referentName,
        detail: [c.email, c.company.name].filter(Boolean).join(' · '),
      })),
    },
    {
      name: t('search.companies'),
      options: r.companies.map((c) => ({
        key: `c${c.id}`,
        to: `${base}?view=open&company=${c.id}`,
        label: c.name,
        detail: '',
      })),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

/**
 * The inbox's search box: Enter searches the inbox (the form's submit); while one types, tickets,
 * contacts and companies it names are offered below, grouped, after a pause (a newer text cancels the
 * older question). Arrows move through them, Enter opens one (a ticket, or the inbox of a contact or
 * company), Escape closes them. A combobox as ARIA describes it: the input keeps the focus.
 */
export function QuickSearch({
  company,
  initial,
  inputRef,
  onSubmit,
}: {
  company: string;
  initial: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onSubmit: (q: string) => void;
}) {
  const { t } = useStaffT();
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState(initial);
  const [asked, setAsked] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => {
    const q = text.trim();
    const timer = setTimeout(() => setAsked(q), QUICK_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const query = useQuery({ ...quickSearchQuery(company, asked), enabled: open && asked !== '' });
  const groups = query.data && asked === text.trim() ? groupsOf(query.data, company, t) : [];
  const options = groups.flatMap((g) => g.options);
  const shown = open && text.trim() !== '' && asked === text.trim() && query.isSuccess;

  const go = (o: Option) => {
    setOpen(false);
    void navigate(o.to);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && options.length > 0) {
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // -1 is the input itself (Enter then searches the inbox).
      setActive((i) => {
        const next = i + step;
        return next < -1 ? options.length - 1 : next >= options.length ? -1 : next;
      });
    } else if (e.key === 'Enter' && shown && active >= 0 && options[active]) {
      e.preventDefault();
      go(options[active]);
    }
  };
  const activeOption = shown && active >= 0 ? options[active] : undefined;
  // Each option's place in the whole list (arrows move through the groups as one list).
  const placeOf = new Map(options.map((o, i) => [o.key, i]));
  return (
    <form
      role="search"
      className={classes.quickSearch}
      onSubmit={(e) => {
        e.preventDefault();
        setOpen(false);
        onSubmit(text);
      }}
    >
      <TextInput
        ref={inputRef}
        name="q"
        type="search"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        aria-label={t('inbox.search')}
        placeholder={t('inbox.searchPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        maxLength={200}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={activeOption ? `${listId}-${activeOption.key}` : undefined}
        autoComplete="off"
      />
      <div
        id={listId}
        role="listbox"
        aria-label={t('search.results')}
        className={classes.quickResults}
        hidden={!shown}
        data-testid="quick-search"
        // A click on a result must not blur the input first (which would close the list).
        onMouseDown={(e) => e.preventDefault()}
      >
        {shown && groups.length === 0 && <p className={classes.quickEmpty}>{t('search.nothing')}</p>}
        {groups.map((g) => (
          <div key={g.name} role="group" aria-label={g.name}>
            <p className={classes.quickGroup} aria-hidden>
              {g.name}
            </p>
            {g.options.map((o) => {
              const i = placeOf.get(o.key) ?? -1;
              return (
                <div
                  key={o.key}
                  id={`${listId}-${o.key}`}
                  role="option"
                  aria-selected={i === active}
                  className={classes.quickOption}
                  onClick={() => go(o)}
                  onMouseEnter={() => setActive(i)}
                  data-testid="quick-option"
                >
                  <span className={classes.quickLabel}>{o.label}</span>
                  {o.detail && <span className={classes.quickDetail}>{o.detail}</span>}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </form>
  );
}
