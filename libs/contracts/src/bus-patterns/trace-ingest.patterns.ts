import { projectScoped } from './request-shape';
import type { TextPage } from '../lists/page';
import type { IngestReceiptsReply, IngestReceiptsRequest, SpanParentsReply, SpanParentsRequest, TraceGetRequest, TraceListKey, TraceListRequest } from '../traces/trace.messages';
import type { TraceView } from '../traces/trace.views';
import type { ModelPriceListView, ModelPricesGetRequest, ModelPricesPutRequest } from '../traces/model-prices';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';

const service = ServiceNames.TraceIngest;

/** What trace-ingest answers: the stored traces (it takes new ones from a stream, not by request), and the price tables it costs spans by. */
export const traceIngestPatterns = {
  TracePing: pingPattern('trace.ping', service),
  TraceList: busPattern<TraceListRequest, TextPage<TraceListKey>>()({ wire: 'trace.traces.list', service, readOnly: true, shape: projectScoped() }),
  TraceGet: busPattern<TraceGetRequest, TraceView>()({ wire: 'trace.traces.get', service, readOnly: true, shape: projectScoped('id') }),
  SpanParents: busPattern<SpanParentsRequest, SpanParentsReply>()({ wire: 'trace.spans.parents', service, readOnly: true, shape: projectScoped('traceId') }),
  IngestReceipts: busPattern<IngestReceiptsRequest, IngestReceiptsReply>()({ wire: 'trace.ingest.receipts', service, readOnly: true, shape: projectScoped() }),
  ModelPricesGet: busPattern<ModelPricesGetRequest, ModelPriceListView>()({ wire: 'trace.prices.get', service, readOnly: true, shape: projectScoped() }),
  ModelPricesPut: busPattern<ModelPricesPutRequest, ModelPriceListView>()({ wire: 'trace.prices.put', service, readOnly: false, shape: projectScoped() }),
} as const;
