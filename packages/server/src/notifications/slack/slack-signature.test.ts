import { describe, expect, it } from 'vitest';
import { signSlackRequest, verifySlackRequest } from './slack-signature';

// the example of Slack's documentation (api.slack.com/authentication/verifying-requests-from-slack)
const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
const timestamp = '1531420618';
const body =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const documented = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

describe('Slack request signatures', () => {
  it("match Slack's documented example", () => {
    expect(signSlackRequest(signingSecret, body, Number(timestamp))).toBe(documented);
    expect(
      verifySlackRequest({
        signingSecret,
        body,
        timestamp,
        signature: documented,
        now: Number(timestamp) + 60,
      }),
    ).toBe(true);
  });

  it('refuse a changed body, signature or secret, and a timestamp outside five minutes', () => {
    const now = Number(timestamp);
    expect(
      verifySlackRequest({ signingSecret, body: `${body}x`, timestamp, signature: documented, now }),
    ).toBe(false);
    expect(
      verifySlackRequest({ signingSecret, body, timestamp, signature: documented.replace('a2', 'b2'), now }),
    ).toBe(false);
    expect(verifySlackRequest({ signingSecret: 'other', body, timestamp, signature: documented, now })).toBe(
      false,
    );
    expect(
      verifySlackRequest({ signingSecret, body, timestamp, signature: documented, now: now + 301 }),
    ).toBe(false);
    expect(verifySlackRequest({ signingSecret, body, timestamp: 'x', signature: documented, now })).toBe(
      false,
    );
    expect(verifySlackRequest({ signingSecret, body, timestamp: null, signature: null, now })).toBe(false);
  });
});
