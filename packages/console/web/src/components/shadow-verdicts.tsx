import '../shadow.css';
import { type ShadowVerdict, wouldHave } from '../lib/shadow-verdicts';
import { at } from '../lib/time';

/** A lane of the run's timeline: a marker where each shadow verdict was judged. */
export function ShadowLane(props: { verdicts: ShadowVerdict[]; pos: (at: number) => string }) {
  if (props.verdicts.length === 0) return null;
  return (
    <div className="lane shadow" data-kind="shadow">
      <div className="lane-label" title="Permission rules in shadow mode (recorded, not enforced)">
        shadow rules
      </div>
      <div className="lane-track">
        {props.verdicts.map((verdict) => (
          <div
            key={verdict.call}
            className={`bar shadow-mark ${verdict.behavior}`}
            data-testid="shadow-mark"
            style={{ left: props.pos(verdict.at) }}
            title={`${verdict.toolName}: ${wouldHave(verdict.behavior)} (enforced: ${verdict.enforced})`}
            role="img"
            aria-label={`shadow rule: ${verdict.toolName} ${wouldHave(verdict.behavior)}, enforced ${verdict.enforced}`}
          />
        ))}
      </div>
      <div className="lane-detail muted small">{verdicts(props.verdicts.length)}</div>
    </div>
  );
}

const verdicts = (count: number) => `${count} verdict${count === 1 ? '' : 's'}`;

/** The run's shadow verdicts: what each rule would have done, what was enforced, and why. */
export function ShadowVerdictList({ verdicts: list }: { verdicts: ShadowVerdict[] }) {
  if (list.length === 0) return null;
  return (
    <section className="shadow-verdicts" aria-label="Shadow verdicts">
      <h3 className="small">Permission rules in shadow mode (recorded, not enforced)</h3>
      <ul>
        {list.map((verdict) => (
          <li key={verdict.call} data-testid="shadow-verdict" data-tool-call-id={verdict.toolCallId}>
            <code>{verdict.toolName}</code>{' '}
            <span className={`badge ${verdict.behavior === 'deny' ? 'denied' : 'waiting'}`}>
              {wouldHave(verdict.behavior)}
            </span>{' '}
            <span className="small">
              enforced: <strong>{verdict.enforced}</strong> · step {verdict.step} ·{' '}
              {verdict.rule ? <code>{verdict.rule}</code> : 'the default'} ·{' '}
              <span className="muted">{at(verdict.at)}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
