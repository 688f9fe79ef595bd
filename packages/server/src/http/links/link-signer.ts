import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What an approval link grants: an answer to one ticket of one run of one tenant, until `expiresAt`. */
export interface LinkClaims {
  tenant: string;
  runId: string;
  ticketId: string;
  /** Epoch ms after which the link is refused. */
  expiresAt: number;
  /** The approver the link was issued for, if one was named. */
  approver?: string;
  /** The subject whose token issued the link. */
  issuedBy: string;
}

/** Signs and checks approval links with one HMAC-SHA256 key. */
export interface LinkSigner {
  sign(claims: LinkClaims): string;
  /** True when `signature` is the signature of exactly these claims (constant-time comparison). */
  verify(claims: LinkClaims, signature: string): boolean;
}

/** Every claim, in a fixed order, unambiguous (JSON): changing any of them changes the signature. */
function payloadOf(claims: LinkClaims): string {
  return JSON.stringify([
    'awaken-link-v1',
    claims.tenant,
    claims.runId,
    claims.ticketId,
    claims.expiresAt,
    claims.approver ?? null,
    claims.issuedBy,
  ]);
}

/**
 * A signer over `secret`; without one, a random 32-byte key of this process — links it issues stop
 * working when the process restarts and are refused by every other process.
 */
export function createLinkSigner(secret?: string): LinkSigner {
  const key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  const sign = (claims: LinkClaims) =>
    createHmac('sha256', key).update(payloadOf(claims)).digest('base64url');
  return {
    sign,
    verify(claims, signature) {
      const expected = Buffer.from(sign(claims), 'utf8');
      const given = Buffer.from(signature, 'utf8');
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/** The query string of a link (the path carries tenant, run and ticket). */
export function linkQuery(claims: LinkClaims, signature: string): string {
  const query = new URLSearchParams({ exp: String(claims.expiresAt), iss: claims.issuedBy });
  if (claims.approver !== undefined) query.set('for', claims.approver);
  query.set('sig', signature);
  return query.toString();
}

/** `/links/<tenant>/<runId>/<ticketId>?exp=…&iss=…[&for=…]&sig=…`, every segment percent-encoded. */
export function linkPath(claims: LinkClaims, signature: string): string {
  const segments = [claims.tenant, claims.runId, claims.ticketId].map(encodeURIComponent).join('/');
  return `/links/${segments}?${linkQuery(claims, signature)}`;
}

/**
 * The claims and signature of a link path as `linkPath` writes it (`/links/<tenant>/<run>/<ticket>?…`),
 * or undefined when it is not one. Says nothing of the signature: check it with `LinkSigner.verify`.
 */
export function parseLinkPath(path: string): { claims: LinkClaims; signature: string } | undefined {
  let url: URL;
  try {
    url = new URL(path, 'http://link.invalid');
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/');
  if (segments.length !== 5 || segments[1] !== 'links') return undefined;
  let tenant: string;
  let runId: string;
  let ticketId: string;
  try {
    [tenant, runId, ticketId] = segments.slice(2).map(decodeURIComponent) as [string, string, string];
  } catch {
    return undefined;
  }
  const exp = url.searchParams.get('exp') ?? '';
  const approver = url.searchParams.get('for');
  const expiresAt = /^\d{1,16}$/.test(exp) ? Number(exp) : Number.NaN;
  if (!Number.isFinite(expiresAt)) return undefined;
  return {
    claims: {
      tenant,
      runId,
      ticketId,
      expiresAt,
      ...(approver === null ? {} : { approver }),
      issuedBy: url.searchParams.get('iss') ?? '',
    },
    signature: url.searchParams.get('sig') ?? '',
  };
}
