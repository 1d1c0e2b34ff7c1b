import type { ExampleTable } from '../openapi/operation-examples';

/** One span in OTLP/JSON (ids in hex, times in Unix nanoseconds as strings, as the OTLP/JSON mapping writes them). */
const EXPORT_REQUEST = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'render-worker' } }] },
      scopeSpans: [
        {
          scope: { name: 'render' },
          spans: [
            {
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId: 'eee19b7ec3c1b174',
              name: 'generate',
              kind: 1,
              startTimeUnixNano: '1736935201000000000',
              endTimeUnixNano: '1736935240000000000',
              attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'veo-3' } }],
            },
          ],
        },
      ],
    },
  ],
};

/** Every span accepted: an empty ExportTraceServiceResponse (no partialSuccess). */
const otlpExport = { request: EXPORT_REQUEST, response: {} };

export const OTLP_EXAMPLES: ExampleTable = { exportOtlpTraces: otlpExport, exportOtlpTracesUnderApi: otlpExport };
