/** What a notification asks of the HTTP app: a signed approval link for one waiting ticket. */
export interface ApprovalLinks {
  /**
   * A link answering `ticketId` of `runId` for `approver` (recorded as who decided), issued by
   * `issuedBy`, valid until `expiresAt` (epoch ms): the absolute URL.
   */
  urlFor(input: {
    tenant: string;
    runId: string;
    ticketId: string;
    approver?: string;
    issuedBy: string;
    expiresAt: number;
  }): string;
}

/** How long a notification's approval link works when its ticket does not expire sooner: one day. */
export const NOTIFICATION_LINK_TTL_MS = 86_400_000;
