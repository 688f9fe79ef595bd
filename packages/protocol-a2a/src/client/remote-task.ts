import type { A2aArtifact, A2aStreamResponse, A2aTask } from '../wire/a2a-types';

/** A remote task as this side saw it, folded from its snapshot and stream events. */
export class RemoteTask {
  constructor(public task: A2aTask) {}

  get state() {
    return this.task.status.state;
  }

  /** Folds one stream event in (a snapshot replaces; `append` artifact chunks are appended). */
  apply(event: A2aStreamResponse): void {
    if ('task' in event) this.task = event.task;
    else if ('statusUpdate' in event) this.task = { ...this.task, status: event.statusUpdate.status };
    else if ('artifactUpdate' in event) {
      const { artifact, append } = event.artifactUpdate;
      const artifacts = [...(this.task.artifacts ?? [])];
      const index = artifacts.findIndex((entry) => entry.artifactId === artifact.artifactId);
      const before = index >= 0 ? artifacts[index] : undefined;
      const merged: A2aArtifact =
        append && before ? { ...before, parts: [...before.parts, ...artifact.parts] } : artifact;
      if (index >= 0) artifacts[index] = merged;
      else artifacts.push(merged);
      this.task = { ...this.task, artifacts };
    }
  }

  /** The text of every artifact, in order. */
  text(): string {
    return (this.task.artifacts ?? [])
      .flatMap((artifact) => artifact.parts.map((part) => ('text' in part ? part.text : '')))
      .join('');
  }

  /** The data parts of every artifact (the remote's tool results), in order. */
  data(): unknown[] {
    return (this.task.artifacts ?? []).flatMap((artifact) =>
      artifact.parts.flatMap((part) => ('data' in part ? [part.data] : [])),
    );
  }

  /** What the status message asks: its text, and its data parts (one per remote ticket). */
  question(): { text: string; requests: Array<Record<string, unknown>> } {
    const parts = this.task.status.message?.parts ?? [];
    const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
    const requests = parts.flatMap((part) =>
      'data' in part && typeof part.data === 'object' && part.data !== null
        ? [part.data as Record<string, unknown>]
        : [],
    );
    return { text, requests };
  }
}
