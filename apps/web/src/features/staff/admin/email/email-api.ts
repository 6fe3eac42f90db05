import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboundInviteBody, InboundStatus, MailboxSettings } from '@sportello/contracts';
import { inboundRoutes, mailboxStaffRoutes } from '@sportello/contracts/route-refs';
import { api, call, pathOf } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/**
 * The support mailbox and the messages read from it (issue 26, docs/email.md), one hook per endpoint:
 * `…/admin/email/mailbox` (get, put, delete, test) for the portal's admins, `…/email/inbound` (list,
 * discard, raw) for its staff.
 */
export const emailKeys = {
  all: (company: string) => [...staffKeys.portal(company), 'email'] as const,
  mailbox: (company: string) => [...emailKeys.all(company), 'mailbox'] as const,
  inbound: (company: string, status: InboundStatus) =>
    [...emailKeys.all(company), 'inbound', status] as const,
};

export const useMailbox = (company: string) =>
  useQuery({
    queryKey: emailKeys.mailbox(company),
    queryFn: ({ signal }) => call(mailboxStaffRoutes.get, { params: { company }, signal }),
  });

/** What the form sends: `password` left out keeps the stored one. */
export type MailboxBody = Omit<MailboxSettings, 'password'> & { password?: string };

export function useSaveMailbox(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MailboxBody) => call(mailboxStaffRoutes.put, { params: { company }, body }),
    onSuccess: (answer) => qc.setQueryData(emailKeys.mailbox(company), answer),
  });
}

export function useDeleteMailbox(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(mailboxStaffRoutes.remove, { params: { company } }),
    onSuccess: () => qc.setQueryData(emailKeys.mailbox(company), { mailbox: null }),
  });
}

/** "Test connection" with the form's settings (not saved): what is sent replaces what is stored. */
export const useTestMailbox = (company: string) =>
  useMutation({
    mutationFn: (body: Partial<MailboxBody>) => call(mailboxStaffRoutes.test, { params: { company }, body }),
  });

export const useInbound = (company: string, status: InboundStatus) =>
  useInfiniteQuery({
    queryKey: emailKeys.inbound(company, status),
    queryFn: ({ pageParam, signal }) =>
      call(inboundRoutes.list, {
        params: { company },
        query: { status: status as 'unknown', before: pageParam ?? undefined, limit: 25 },
        signal,
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
  });

export function useDiscardInbound(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (inboundId: number) => call(inboundRoutes.discard, { params: { company, inboundId } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [...emailKeys.all(company), 'inbound'] }),
  });
}

/** The whole message as received, as text (the view shows at most `max` characters of it). */
export const useInboundRaw = (company: string, inboundId: number | null) =>
  useQuery({
    queryKey: [...emailKeys.all(company), 'raw', inboundId] as const,
    enabled: inboundId !== null,
    queryFn: async ({ signal }) => {
      const blob = await api<Blob>(pathOf(inboundRoutes.raw, { company, inboundId: inboundId! }), {
        accept: 'message/rfc822',
        signal,
      });
      return { size: blob.size, text: await blob.text() };
    },
  });

/** The addresses whose mail bounced: one (`address`, a contact's), or the portal's newest. */
export const useBounces = (company: string, address?: string | null) =>
  useQuery({
    queryKey: [...emailKeys.all(company), 'bounces', address ?? null] as const,
    enabled: address !== null,
    queryFn: ({ signal }) =>
      call(inboundRoutes.bounces, {
        params: { company },
        query: address ? { address, limit: 1 } : { limit: 100 },
        signal,
      }),
  });

export function useClearBounce(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (address: string) => call(inboundRoutes.clearBounce, { params: { company, address } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [...emailKeys.all(company), 'bounces'] }),
  });
}

/** A waiting message given to a contact: their new ticket, or with `ticketId` their comment on it. */
export function useAttachInbound(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { inboundId: number; contactId: number; ticketId?: number }) =>
      call(inboundRoutes.attach, {
        params: { company, inboundId: v.inboundId },
        body: { contactId: v.contactId, ...(v.ticketId === undefined ? {} : { ticketId: v.ticketId }) },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [...emailKeys.all(company), 'inbound'] }),
  });
}

/** "Invite as contact": the sender becomes a contact of `companyId`, is invited, and the message their ticket. */
export function useInviteInbound(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { inboundId: number; body: InboundInviteBody }) =>
      call(inboundRoutes.invite, { params: { company, inboundId: v.inboundId }, body: v.body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [...emailKeys.all(company), 'inbound'] }),
  });
}
