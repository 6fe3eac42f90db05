import type { ComponentType } from 'react';

/**
 * The sections of the desk's administration (issue 14), in menu order: `/{portal}/staff/admin/{path}`.
 * Each section is its own chunk, loaded when opened, so an agent who never administers loads none of
 * them. A section owns every address below its path (its page routes the rest itself, e.g. `:id`).
 * To add a section: one entry here, its texts under `admin.sections.{key}` (title) and
 * `admin.sections.{key}Hint` (one line for the administration's start page) in the desk's i18n files.
 */
export interface AdminSection {
  key: string;
  /** Under `/{portal}/staff/admin/`; lower case. */
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { key: 'companies', path: 'companies', load: () => import('./companies/companies-page') },
  { key: 'ticketSetup', path: 'ticket-setup', load: () => import('./ticket-setup/ticket-setup-page') },
  { key: 'macros', path: 'macros', load: () => import('./macros/macros-page') },
  { key: 'contracts', path: 'contracts', load: () => import('./contracts/contracts-page') },
  { key: 'wiki', path: 'wiki', load: () => import('./wiki/wiki-page') },
  { key: 'appointments', path: 'appointments', load: () => import('./appointments/appointments-page') },
  { key: 'documents', path: 'documents', load: () => import('./documents/documents-page') },
  { key: 'signatures', path: 'signatures', load: () => import('./signatures/signatures-page') },
  { key: 'branding', path: 'branding', load: () => import('./branding/branding-page') },
  { key: 'staff', path: 'staff', load: () => import('./staff/staff-page') },
  { key: 'sla', path: 'sla', load: () => import('./sla/sla-page') },
  { key: 'sharedViews', path: 'shared-views', load: () => import('./shared-views/shared-views-page') },
  { key: 'integrations', path: 'integrations', load: () => import('./integrations/integrations-page') },
  { key: 'email', path: 'email', load: () => import('./email/email-page') },
  { key: 'audit', path: 'audit', load: () => import('./audit/audit-page') },
];
