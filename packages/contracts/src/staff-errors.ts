/** Stable error codes of the staff area (besides the auth area's, which staff sign-in reuses). */
export const staffErrorCodes = {
  /** 403: the staff user does not belong to the `:company` portal. */
  notStaffOfPortal: 'not_staff_of_portal',
  /** 403: the route needs the admin role in this portal. */
  adminRequired: 'admin_required',
  /** 409, invitation: the staff user of that e-mail is disabled. */
  staffDisabled: 'staff_disabled',
  /** 400, inbox: a cursor this server did not give. */
  invalidCursor: 'invalid_cursor',
  /** 400, ticket change: a step, type, group or agent id that is not one of the portal's. */
  unknownReference: 'unknown_reference',
  /** 400, ticket change: nothing to change. */
  nothingToChange: 'nothing_to_change',
  /** 404, staff member routes: no staff member of this portal with that id. */
  staffNotFound: 'staff_not_found',
  /** 409, bulk action: the ticket changed since the agent's list was read. */
  changedMeanwhile: 'changed_meanwhile',
  /** 422, profile: the avatar upload is not a PNG, JPEG, GIF or WebP image by its bytes. */
  avatarNotImage: 'avatar_not_image',
  /** 413, profile: the avatar is larger than AVATAR_MAX_BYTES. */
  avatarTooLarge: 'avatar_too_large',
  /** 422, profile: the avatar's uploadId is not an unattached upload of the caller in this portal. */
  uploadNotFound: 'upload_not_found',
  /** 404, saved views: no view of the caller (or shared, for an admin) with that id in this portal. */
  viewNotFound: 'view_not_found',
  /** 409, saved views: the caller has SAVED_VIEWS_MAX views, or the portal shares that many. */
  tooManyViews: 'too_many_views',
} as const;

/** Stable error codes of the macros. */
export const macroErrorCodes = {
  /** 400: a macro's text names a placeholder that is not one of MACRO_PLACEHOLDERS. */
  unknownPlaceholder: 'unknown_placeholder',
  /** 404: no macro of that id the caller may see in this portal. */
  macroNotFound: 'macro_not_found',
} as const;
