import { describe, expect, it } from 'vitest';
import { createLinkSigner, linkPath } from './link-signer';

const claims = {
  tenant: 'acme',
  runId: 'run-1',
  ticketId: 'permission:1:call_1',
  expiresAt: 1_800_000_000_000,
  approver: 'dana',
  issuedBy: 'alice',
};

describe('approval link signatures', () => {
  it('verify the claims they were made for, and no changed claim', () => {
    const signer = createLinkSigner('s'.repeat(32));
    const signature = signer.sign(claims);
    expect(signer.verify(claims, signature)).toBe(true);
    for (const [key, value] of Object.entries({
      tenant: 'other',
      runId: 'run-2',
      ticketId: 'permission:1:call_2',
      expiresAt: claims.expiresAt + 1,
      approver: 'mallory',
      issuedBy: 'bob',
    })) {
      expect(signer.verify({ ...claims, [key]: value }, signature)).toBe(false);
    }
    const { approver: _approver, ...anyone } = claims;
    expect(signer.verify(anyone, signature)).toBe(false);
    expect(signer.verify(claims, `${signature}x`)).toBe(false);
    expect(signer.verify(claims, '')).toBe(false);
  });

  it('depend on the secret; without one each signer has its own random key', () => {
    const signature = createLinkSigner('s'.repeat(32)).sign(claims);
    expect(createLinkSigner('t'.repeat(32)).verify(claims, signature)).toBe(false);
    expect(createLinkSigner('s'.repeat(32)).verify(claims, signature)).toBe(true);
    const random = createLinkSigner();
    expect(createLinkSigner().verify(claims, random.sign(claims))).toBe(false);
  });

  it('put every path segment percent-encoded and never a token in the URL', () => {
    const path = linkPath(claims, 'sig');
    expect(path).toBe(
      '/links/acme/run-1/permission%3A1%3Acall_1?exp=1800000000000&iss=alice&for=dana&sig=sig',
    );
  });
});
