export const documentKeys = {
  contact: (company: string, contactId: number) => ['documents', company.toLowerCase(), contactId] as const,
  publicFiles: (company: string) => ['publicFiles', company.toLowerCase()] as const,
};
