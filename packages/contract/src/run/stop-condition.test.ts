import { describe, expect, it } from 'vitest';
import { parseWith } from '../errors/validation';
import { stopConditionSpecSchema } from './stop-condition';

describe('StopConditionSpec', () => {
  const valid = [
    { type: 'max_rounds', rounds: 3 },
    { type: 'timeout', seconds: 1.5 },
    { type: 'token_budget', maxTotal: 1000 },
    { type: 'consecutive_errors', max: 2 },
    { type: 'stop_on_tool', toolName: 'finish' },
    { type: 'content_match', pattern: 'DONE$' },
    { type: 'loop_detection', window: 3 },
  ];

  it('accepts each of the seven variants and round-trips them', () => {
    for (const spec of valid)
      expect(stopConditionSpecSchema.parse(JSON.parse(JSON.stringify(spec)))).toEqual(spec);
    expect(stopConditionSpecSchema.options).toHaveLength(7);
  });

  it('rejects an unknown field so a typo cannot disable a limit', () => {
    expect(() =>
      parseWith(stopConditionSpecSchema, { type: 'max_rounds', rounds: 3, round: 4 }, 'stop condition'),
    ).toThrowError(/round/);
  });

  it('rejects an invalid regular expression in content_match, naming the field', () => {
    expect(() =>
      parseWith(stopConditionSpecSchema, { type: 'content_match', pattern: '(unclosed' }),
    ).toThrowError(/pattern: pattern is not a valid regular expression/);
  });

  it('rejects non-positive limits, naming the field', () => {
    expect(() => parseWith(stopConditionSpecSchema, { type: 'max_rounds', rounds: 0 })).toThrowError(
      /rounds/,
    );
    expect(() => parseWith(stopConditionSpecSchema, { type: 'loop_detection', window: 1 })).toThrowError(
      /window/,
    );
  });

  it('rejects an unknown variant', () => {
    expect(stopConditionSpecSchema.safeParse({ type: 'max_steps', rounds: 3 }).success).toBe(false);
  });
});
