import { Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { applyLanguage, isLanguage, LANGUAGES } from '../i18n';

/**
 * Italiano / English / Español (SPEC A2). The choice is saved, sets `<html lang>` and the date locale.
 * Colours are inherited, so the picker reads on any header background.
 */
export function LanguagePicker({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = LANGUAGES.find((l) => l.value === i18n.language) ?? LANGUAGES[0];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={className}
          aria-label={`${t('layout.language')}: ${current.label}`}
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 4,
            color: 'inherit',
            padding: '6px 8px',
          }}
        >
          <IconLanguage size={20} aria-hidden />
          <span aria-hidden style={{ fontSize: 14, fontWeight: 600 }}>
            {current.value.slice(0, 2).toUpperCase()}
          </span>
          <IconChevronDown size={14} aria-hidden />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('layout.language')}</Menu.Label>
        <Menu.RadioGroup
          value={current.value}
          onChange={(v) => {
            if (isLanguage(v)) applyLanguage(v);
          }}
        >
          {LANGUAGES.map((l) => (
            <Menu.RadioItem key={l.value} value={l.value} lang={l.value} closeMenuOnClick>
              {l.label}
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
      </Menu.Dropdown>
    </Menu>
  );
}
