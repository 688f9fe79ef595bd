import { RUN_RECORDING_MEDIA_TYPE } from '@awaken/contract';
import { exportRunRecording } from '@awaken/runtime';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { apiRoutes } from '../schemas/api-routes';
import { runParamsSchema } from '../schemas/common-schemas';

const getRecording = apiRoutes(['Runs']).get('/v1/runs/{runId}/recording', {
  summary:
    'A recording of the run for offline replay (`replayRun` of @awaken/testing): NDJSON, a header line (format, version, agent, agent pin, input), one line per event, an end line with the event count',
  request: { params: runParamsSchema },
  responses: {
    200: {
      description: 'The recording, streamed',
      content: { [RUN_RECORDING_MEDIA_TYPE]: { schema: z.string() } },
    },
  },
});

/**
 * `GET /v1/runs/:runId/recording` (scope `read`): the run's recording (`exportRunRecording`),
 * streamed from the event log a page at a time; 404 for an unknown run.
 */
export function registerRecordingRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(getRecording, async (c) => {
    const { runId } = c.req.valid('param');
    c.var.ids.runId = runId;
    const { threadRuns, eventLog } = c.var.service.stores;
    const lines = (await exportRunRecording({ threadRuns, eventLog }, runId))[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return?.();
      },
    });
    return new Response(body, {
      status: 200,
      headers: { 'content-type': RUN_RECORDING_MEDIA_TYPE },
    }) as never;
  });
}
