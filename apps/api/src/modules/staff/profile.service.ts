/**
 * The agent's own identity (issue 28 item 9): the name customers see on their replies and the inbox
 * shows as assignee, an avatar (or the initials) and a signature that ends each public reply written
 * on the desk (writeComment appends it). Set by the agent on the desk's profile page.
 */
import {
  AVATAR_MAX_BYTES,
  staffErrorCodes,
  type StaffProfile,
  type StaffProfileUpdate,
} from '@sportello/contracts';
import { claimUpload, isRasterImage } from '../../platform/claimed-uploads';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { staffSigner } from './inbox.service';
import type { StaffPortalAccess } from './staff.access';
import { readProfile, writeProfile, type ProfileRow } from './profile.queries';

function answerOf(ctx: AppContext, r: ProfileRow): StaffProfile {
  return {
    email: r.email,
    displayName: r.displayName,
    signature: r.signature,
    avatarUrl:
      r.avatarFileId === null
        ? null
        : staffSigner(ctx)({ id: r.avatarFileId, name: r.avatarName ?? 'avatar', fileId: r.avatarFileId })
            .url,
  };
}

export async function profile(ctx: AppContext, a: StaffPortalAccess): Promise<StaffProfile> {
  return answerOf(ctx, await readProfile(ctx.database.db, a.staffUserId));
}

/** Signatures are plain text: line ends kept as such, trailing blanks dropped. */
const cleanSignature = (s: string) =>
  s
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();

export async function setProfile(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: StaffProfileUpdate,
): Promise<StaffProfile> {
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  const row = await ctx.database.db.transaction(async (tx) => {
    let avatarFileId: number | null | undefined;
    if (body.avatar === null) avatarFileId = null;
    else if (body.avatar) {
      // The logo's rules (admin settings): the caller's own upload of this portal, an image by its bytes.
      const upload = await claimUpload(
        tx,
        { type: 'staff', staffUserId: a.staffUserId, portalId },
        body.avatar.uploadId,
        now,
      );
      if (!upload)
        throw new AppError(
          422,
          staffErrorCodes.uploadNotFound,
          `avatar.uploadId: ${body.avatar.uploadId} is not an unattached upload of yours in this portal`,
        );
      if (upload.size > AVATAR_MAX_BYTES)
        throw new AppError(413, staffErrorCodes.avatarTooLarge, 'The avatar may be 1 MB at most');
      if (!isRasterImage(await ctx.fileStore.head(upload.sha256, 12)))
        throw new AppError(
          422,
          staffErrorCodes.avatarNotImage,
          'The avatar must be a PNG, JPEG, GIF or WebP image',
        );
      avatarFileId = upload.id;
    }
    await writeProfile(tx, a.staffUserId, {
      ...(body.displayName !== undefined && { displayName: body.displayName }),
      ...(body.signature !== undefined && { signature: cleanSignature(body.signature) }),
      ...(avatarFileId !== undefined && { avatarFileId }),
    });
    return readProfile(tx, a.staffUserId);
  });
  return answerOf(ctx, row);
}
