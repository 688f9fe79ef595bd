import '../branches.css';

/** How the agent served now differs from the one a run started under (`agentDrift` of `GET /v1/runs/:id`). */
export interface AgentDrift {
  changed: string[];
  tools?: { added: string[]; removed: string[]; changed: string[] };
}

/** `instructions, tools (added: x; changed: delete_file)`: what changed, one line. */
export function describeDrift(drift: AgentDrift): string {
  return drift.changed
    .map((field) => {
      if (field !== 'tools' || !drift.tools) return field;
      const tools = drift.tools;
      const parts = (['added', 'removed', 'changed'] as const)
        .filter((kind) => tools[kind].length > 0)
        .map((kind) => `${kind}: ${tools[kind].join(', ')}`);
      return parts.length > 0 ? `tools (${parts.join('; ')})` : 'tools';
    })
    .join(', ');
}

/**
 * A badge on the run page when the run's agent is defined differently now than when the run started
 * (a deploy meanwhile), naming what changed; nothing when the server reports no drift.
 */
export function AgentDriftBadge({ drift }: { drift: AgentDrift | undefined }) {
  if (!drift || drift.changed.length === 0) return null;
  return (
    <p className="drift small" data-testid="agent-drift" role="status">
      <span className="badge waiting">agent changed</span> since this run started:{' '}
      <strong data-testid="agent-drift-fields">{describeDrift(drift)}</strong>
      <span className="muted"> (the agent the server runs now is defined differently)</span>
    </p>
  );
}
