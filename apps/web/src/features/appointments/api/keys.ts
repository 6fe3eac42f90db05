/** Query keys of the appointments area; event and cancellation keys are capabilities, kept as typed. */
export const appointmentKeys = {
  link: (company: string, eventKey: string) =>
    ['appointments', 'link', company.toLowerCase(), eventKey] as const,
  /** Prefix of every slots query of a link: a booking or a 409 invalidates them all. */
  slotsOf: (company: string, eventKey: string) =>
    ['appointments', 'slots', company.toLowerCase(), eventKey] as const,
  slots: (company: string, eventKey: string, from: string, to: string, duration: number) =>
    [...appointmentKeys.slotsOf(company, eventKey), from, to, duration] as const,
  appointment: (company: string, cancelKey: string) =>
    ['appointments', 'appointment', company.toLowerCase(), cancelKey] as const,
};
