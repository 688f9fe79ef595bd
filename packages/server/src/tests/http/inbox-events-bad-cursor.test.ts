import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

describe('GET /v1/inbox/events with a cursor no listing returned', () => {
  it('is a 422 naming cursor, as GET /v1/inbox answers, never a 500', async () => {
    const listed = await fx.json('/v1/inbox?cursor=zzz');
    expect(listed.status).toBe(422);
    const response = await fx.call('/v1/inbox/events?cursor=zzz');
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(JSON.parse(text).error.message).toContain('cursor');
  });
});
