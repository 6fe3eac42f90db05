import type { UseMutationOptions } from '@tanstack/react-query';
import type { BodyInputOf, ContractOf, ResponseOf } from '@sportello/contracts';

/** What a route's contract takes as its body, for the typed hooks of the section files. */
export type BodyFor<Ref> = BodyInputOf<ContractOf<Ref>>;

/**
 * What a section adds to a write's hook: its own onSuccess/onError (a message, a reset), around the
 * call the hook makes.
 */
export type Callbacks<Ref, V> = Omit<UseMutationOptions<ResponseOf<ContractOf<Ref>>, Error, V>, 'mutationFn'>;
