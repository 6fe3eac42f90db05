import type { CredentialCreator } from '@sportello/contracts';
import type { useStaffT } from '../../i18n';

/** Who made a key or an endpoint, as the lists show it (the name recorded then). */
export const creatorText = (c: CredentialCreator, t: ReturnType<typeof useStaffT>['t']): string =>
  c === null ? t('access.creator.unknown') : t(`access.creator.${c.type}`, { name: c.name });
