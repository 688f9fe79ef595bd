import { agentPathLabel } from '../lib/subagents';
import type { NestedQuestion } from '../lib/tickets';
import '../subagents.css';

/**
 * The agent path of a question asked inside a sub-agent (`demo › janitor › delete_file`), with a link
 * to the child run that asks it. The answer still goes to the top-level ticket: the server forwards it.
 */
export function NestedPath({ nested }: { nested: NestedQuestion }) {
  return (
    <p className="nested-path small" data-testid="nested-path">
      <span className="muted">asked inside a sub-agent:</span>{' '}
      <span data-testid="agent-path">{agentPathLabel(nested.agentPath, nested.toolName)}</span>{' '}
      <a
        className="muted"
        href={`#/run/${encodeURIComponent(nested.runId)}`}
        title="The child run that asks (answer here: the answer is forwarded to it)"
      >
        child run
      </a>
    </p>
  );
}
