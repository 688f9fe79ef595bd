import { useEffect, useRef } from 'react';
import { useApi } from '../lib/hooks';
import { type ChildRun, agentPathLabel } from '../lib/subagents';
import { StatusBadge } from '../pages/runs-page';
import '../subagents.css';

/** The part of a run record the sub-agent views read. */
interface ChildRecord {
  status: string;
  termination?: { type?: string; message?: string };
  agentId: string;
  agentPath?: string[];
  parentCallId?: string;
  response?: string;
}

/**
 * One child run as a nested lane: its status as its own record says (fetched again whenever the
 * parent's events say an activation of it started or ended), its agent and agent path, the parent
 * call that started it, and a link to its run page.
 */
function ChildLane({ child }: { child: ChildRun }) {
  const path = `/v1/runs/${encodeURIComponent(child.childRunId)}`;
  const record = useApi<ChildRecord>(path);
  const reload = record.reload;
  // a new seq (an activation of the child started or ended) means its record moved: read it again
  const seen = useRef(child.seq);
  useEffect(() => {
    if (seen.current === child.seq) return;
    seen.current = child.seq;
    reload();
  }, [child.seq, reload]);
  const data = record.data;
  return (
    <li className="child-lane" data-testid="child-run" data-run-id={child.childRunId}>
      <div className="child-lane-head">
        {data ? (
          <StatusBadge status={data.status} termination={data.termination} />
        ) : (
          <span className="badge cancelled">{record.error ? 'unknown' : '…'}</span>
        )}
        <a href={`#/run/${encodeURIComponent(child.childRunId)}`} data-testid="child-run-link">
          <strong>{child.agentId}</strong> <code className="small">{child.childRunId}</code>
        </a>
      </div>
      <p className="muted small">
        path <span data-testid="agent-path">{agentPathLabel(data?.agentPath ?? child.agentPath)}</span> ·
        started by call <code>{child.toolCallId}</code>
      </p>
      {record.error ? <p className="error small">{record.error}</p> : null}
      {data?.response && data.status === 'done' ? (
        <p className="small child-answer">“{data.response}”</p>
      ) : null}
    </li>
  );
}

/** The sub-agents a run delegated to (its child runs), each a nested lane linking to its run page. */
export function ChildRuns({ runs }: { runs: ChildRun[] }) {
  if (runs.length === 0) return null;
  return (
    <div className="card">
      <h2>Sub-agents</h2>
      <ul className="child-lanes" data-testid="child-runs">
        {runs.map((child) => (
          <ChildLane key={child.childRunId} child={child} />
        ))}
      </ul>
    </div>
  );
}

/** The parent part of a child run's record. */
export interface ParentOf {
  parentRunId?: string;
  parentCallId?: string;
  agentPath?: string[];
}

/** On a child run's page: the run and call that started it, and its agent path. */
export function ParentRunLink({ record }: { record: ParentOf }) {
  if (!record.parentRunId) return null;
  return (
    <p className="small parent-link" data-testid="parent-run">
      ↰ sub-agent of run{' '}
      <a href={`#/run/${encodeURIComponent(record.parentRunId)}`} data-testid="parent-run-link">
        <code>{record.parentRunId}</code>
      </a>
      {record.parentCallId ? (
        <>
          {' '}
          · call <code data-testid="parent-call-id">{record.parentCallId}</code>
        </>
      ) : null}
      {record.agentPath ? (
        <>
          {' '}
          · path <span data-testid="agent-path">{agentPathLabel(record.agentPath)}</span>
        </>
      ) : null}
    </p>
  );
}
