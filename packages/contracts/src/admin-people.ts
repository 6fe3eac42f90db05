/**
 * The desk's administration of people (issue 14 item 1): lists of the portal's companies, contacts
 * and users for a staff admin, and "see as this contact", a short read-only customer session. The
 * changes themselves (create, edit, invite, deactivate…) are the single-entity routes of entities.ts.
 */
import { z } from 'zod';
import { errorSchema, extIdParam, isoDateTime } from './common';
import { permissionShape } from './permissions';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';

export const peopleErrorCodes = {
  /** 403: a "see as this contact" session may only read. */
  readOnlySession: 'read_only_session',
  /** 400: a `cursor` that no page of this list handed out. */
  invalidCursor: 'invalid_cursor',
  /** 404: a "see as" code that is unknown, used or expired. */
  viewCodeInvalid: 'view_code_invalid',
} as const;

export const PEOPLE_PAGE_MAX = 100;
/** A "see as this contact" session lasts this long at most (minutes). */
export const VIEW_AS_TTL_MIN = 15;
/** The one-time code that opens it must be exchanged within (seconds). */
export const VIEW_AS_CODE_TTL_S = 60;

export const peopleListQuerySchema = z.object({
  /** Part of a name or e-mail; digits also find the back office's id. */
  q: z.string().trim().max(100).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(PEOPLE_PAGE_MAX).default(50),
});
export type PeopleListQuery = z.input<typeof peopleListQuerySchema>;

export const peopleCompanySchema = z.object({
  id: z.number().int(),
  companyName: z.string(),
  contacts: z.number().int(),
  users: z.number().int(),
});
export type PeopleCompany = z.infer<typeof peopleCompanySchema>;
export const peopleCompanyPageSchema = z.object({
  items: z.array(peopleCompanySchema),
  nextCursor: z.string().nullable(),
});
export type PeopleCompanyPage = z.infer<typeof peopleCompanyPageSchema>;

export const peopleContactSchema = z.object({
  contactId: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string(),
  referentName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  users: z.number().int(),
  permissions: z.object(permissionShape(() => z.boolean())),
  /** A delivery report said mail to the address fails (docs/email.md "Loops"): "Address bouncing". */
  bouncing: z.boolean(),
});
export type PeopleContact = z.infer<typeof peopleContactSchema>;
export const peopleContactPageSchema = z.object({
  items: z.array(peopleContactSchema),
  nextCursor: z.string().nullable(),
});
export type PeopleContactPage = z.infer<typeof peopleContactPageSchema>;

/**
 * A user of a contact. `invited`: no password yet, a link is open; `invitation_expired`: no password
 * and no open link (revoked or expired: resend); `active`: has a password. A deactivated user no
 * longer holds the portal's contacts, so it is not listed.
 */
export const peopleUserStates = ['invited', 'invitation_expired', 'active'] as const;
export const peopleUserSchema = z.object({
  userName: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  state: z.enum(peopleUserStates),
  lastSignInAt: isoDateTime.nullable(),
});
export type PeopleUser = z.infer<typeof peopleUserSchema>;
export const peopleUserListSchema = z.object({ items: z.array(peopleUserSchema) });

export const viewAsCodeSchema = z.object({
  /** Single use, valid VIEW_AS_CODE_TTL_S seconds: exchanged by `POST /api/auth/view-as`. */
  code: z.string(),
  expiresAt: isoDateTime,
});
export const viewAsExchangeSchema = z.strictObject({ code: z.string().min(1).max(200) });
export const viewAsSessionSchema = z.object({
  /** A bearer token for the customer routes that only reads; it ends at `expiresAt`. */
  token: z.string(),
  expiresAt: isoDateTime,
  company: z.string(),
  contactId: z.number().int(),
  referentName: z.string(),
  /** The staff user who looks. */
  viewer: z.string(),
});
export type ViewAsSession = z.infer<typeof viewAsSessionSchema>;

// ---- routes ---------------------------------------------------------------------------------------

const staffAdmin = { guard: 'staff', role: 'admin' } as const;
const tags = ['staff: admin'] as const;
const root = '/api/staff/portals/:company/admin/people';
const companyOne = staffPortalParamsSchema.extend({ id: extIdParam });
const contactOne = staffPortalParamsSchema.extend({ contactid: extIdParam });

export const peopleRoutes = {
  companies: defineRoute({
    method: 'GET',
    path: `${root}/companies`,
    params: staffPortalParamsSchema,
    query: peopleListQuerySchema,
    responses: { 200: peopleCompanyPageSchema },
    access: staffAdmin,
    tags,
    summary: 'The companies of the portal by name (search by name or id), with counts; keyset pages',
  }),
  companyContacts: defineRoute({
    method: 'GET',
    path: `${root}/companies/:id/contacts`,
    params: companyOne,
    query: peopleListQuerySchema,
    responses: { 200: peopleContactPageSchema, 404: errorSchema },
    access: staffAdmin,
    tags,
    summary: 'The contacts of a company by name (search by name, e-mail or id); keyset pages',
  }),
  contacts: defineRoute({
    method: 'GET',
    path: `${root}/contacts`,
    params: staffPortalParamsSchema,
    query: peopleListQuerySchema,
    responses: { 200: peopleContactPageSchema },
    access: staffAdmin,
    tags,
    summary: 'Every contact of the portal by name (search by name, e-mail or id); keyset pages',
  }),
  contactUsers: defineRoute({
    method: 'GET',
    path: `${root}/contacts/:contactid/users`,
    params: contactOne,
    responses: { 200: peopleUserListSchema, 404: errorSchema },
    access: staffAdmin,
    tags,
    summary: 'The users of a contact with their state and last sign-in',
  }),
  viewAs: defineRoute({
    method: 'POST',
    path: `${root}/contacts/:contactid/view-as`,
    params: contactOne,
    responses: { 201: viewAsCodeSchema, 404: errorSchema },
    access: staffAdmin,
    tags,
    summary: 'See the portal as this contact: a one-time code for a read-only customer session',
    description:
      `The code is exchanged once, within ${VIEW_AS_CODE_TTL_S} s, by \`POST /api/auth/view-as\` for a ` +
      `bearer token valid ${VIEW_AS_TTL_MIN} minutes that every customer route accepts for reading ` +
      'only (any other method: 403 `read_only_session`). Writes the audit log (`contact.viewed_as`).',
  }),
  viewAsExchange: defineRoute({
    method: 'POST',
    path: '/api/auth/view-as',
    body: viewAsExchangeSchema,
    responses: { 200: viewAsSessionSchema, 404: errorSchema },
    // The single-use code is the capability.
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'Exchange a "see as this contact" code for its read-only session',
    description: '404 `view_code_invalid` for a code unknown, used or expired.',
  }),
};
