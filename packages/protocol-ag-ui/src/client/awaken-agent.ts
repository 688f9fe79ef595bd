import {
  type BaseEvent,
  HttpAgent,
  type HttpAgentConfig,
  type RunAgentInput,
  runHttpRequest,
  transformHttpEventStream,
} from '@ag-ui/client';
import type { Observable } from 'rxjs';

export interface AwakenAgentConfig extends HttpAgentConfig {
  /**
   * The reconnect endpoint. Default: `url` with its last `/run` replaced by `/connect`
   * (`…/v1/ag-ui/agents/<agentId>/connect`).
   */
  connectUrl?: string;
  /** The stop endpoint. Default: `url` with its last `/run` replaced by `/stop`. */
  stopUrl?: string;
}

function sibling(url: string, name: string): string {
  const at = url.lastIndexOf('/run');
  if (at < 0) throw new Error(`AwakenAgent: cannot derive the ${name} URL from ${url}; set ${name}Url`);
  return `${url.slice(0, at)}/${name}${url.slice(at + 4)}`;
}

/**
 * An `HttpAgent` for an Awaken server: `runAgent()` as usual, plus `connectAgent()` that re-attaches
 * to the thread's run still working on the server — replayed from the durable event log, on any
 * process, then followed live — and `stop()` that cancels the thread's active run server-side.
 * A reloaded page calls `connectAgent()` to see the rest of a run it lost.
 */
export class AwakenAgent extends HttpAgent {
  connectUrl: string;
  stopUrl: string;

  constructor(config: AwakenAgentConfig) {
    super(config);
    this.connectUrl = config.connectUrl ?? sibling(config.url, 'connect');
    this.stopUrl = config.stopUrl ?? sibling(config.url, 'stop');
  }

  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    const init = this.requestInit(input);
    return transformHttpEventStream(
      runHttpRequest(() => this.fetch(this.connectUrl, init)),
      this.debugLogger,
    );
  }

  /** Cancels the thread's active run on the server; resolves with the stopped run (null when none). */
  async stop(): Promise<{ runId: string | null; status: string | null }> {
    const response = await this.fetch(this.stopUrl, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: this.threadId }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return (await response.json()) as { runId: string | null; status: string | null };
  }

  override clone(): AwakenAgent {
    const copy = super.clone() as AwakenAgent;
    copy.connectUrl = this.connectUrl;
    copy.stopUrl = this.stopUrl;
    return copy;
  }
}
