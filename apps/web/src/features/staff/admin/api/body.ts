import type { BodyInputOf, ContractOf } from '@sportello/contracts';

/** What a route's contract takes as its body, for the typed hooks of the section files. */
export type BodyFor<Ref> = BodyInputOf<ContractOf<Ref>>;
