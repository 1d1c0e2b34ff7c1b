import { projectScoped } from './request-shape';
import type { TextPage } from '../lists/page';
import type { IngestReceiptsReply, IngestReceiptsRequest, SpanParentsReply, SpanParentsRequest, TraceGetRequest, TraceListKey, TraceListRequest } from '../traces/trace.messages';
import type { TraceView } from '../traces/trace.views';
import type { ModelPriceListView, ModelPricesGetRequest, ModelPricesPutRequest } from '../traces/model-prices';
import type { Page } from '../lists/page';
import type {
  ScoreBatchRequest,
  ScoreBatchView,
  ScoreConfigCreateRequest,
  ScoreConfigListRequest,
  ScoreConfigUpdateRequest,
  ScoreConfigView,
  ScoreCreateReply,
  ScoreCreateRequest,
  ScoreDeleteRequest,
  ScoreListKey,
  ScoreListRequest,
  ScoreView,
} from '../traces/scores';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';

const service = ServiceNames.TraceIngest;

/**
 * What trace-ingest answers: the stored traces (it takes new ones from a stream, not by
 * request), the price tables it costs spans by, and the scores it keeps beside the traces
 * (written by the API here, by benchmark tasks on the trace stream) with their configs.
 */
export const traceIngestPatterns = {
  TracePing: pingPattern('trace.ping', service),
  TraceList: busPattern<TraceListRequest, TextPage<TraceListKey>>()({ wire: 'trace.traces.list', service, readOnly: true, shape: projectScoped() }),
  TraceGet: busPattern<TraceGetRequest, TraceView>()({ wire: 'trace.traces.get', service, readOnly: true, shape: projectScoped('id') }),
  SpanParents: busPattern<SpanParentsRequest, SpanParentsReply>()({ wire: 'trace.spans.parents', service, readOnly: true, shape: projectScoped('traceId') }),
  IngestReceipts: busPattern<IngestReceiptsRequest, IngestReceiptsReply>()({ wire: 'trace.ingest.receipts', service, readOnly: true, shape: projectScoped() }),
  ModelPricesGet: busPattern<ModelPricesGetRequest, ModelPriceListView>()({ wire: 'trace.prices.get', service, readOnly: true, shape: projectScoped() }),
  ModelPricesPut: busPattern<ModelPricesPutRequest, ModelPriceListView>()({ wire: 'trace.prices.put', service, readOnly: false, shape: projectScoped() }),
  ScoreCreate: busPattern<ScoreCreateRequest, ScoreCreateReply>()({ wire: 'trace.scores.create', service, readOnly: false, shape: projectScoped() }),
  ScoreBatch: busPattern<ScoreBatchRequest, ScoreBatchView>()({ wire: 'trace.scores.batch', service, readOnly: false, shape: projectScoped() }),
  ScoreList: busPattern<ScoreListRequest, Page<ScoreView, ScoreListKey>>()({ wire: 'trace.scores.list', service, readOnly: true, shape: projectScoped() }),
  ScoreDelete: busPattern<ScoreDeleteRequest, Record<string, never>>()({ wire: 'trace.scores.delete', service, readOnly: false, shape: projectScoped('id') }),
  ScoreConfigCreate: busPattern<ScoreConfigCreateRequest, ScoreConfigView>()({ wire: 'trace.score-configs.create', service, readOnly: false, shape: projectScoped() }),
  ScoreConfigList: busPattern<ScoreConfigListRequest, Page<ScoreConfigView, string>>()({ wire: 'trace.score-configs.list', service, readOnly: true, shape: projectScoped() }),
  ScoreConfigUpdate: busPattern<ScoreConfigUpdateRequest, ScoreConfigView>()({ wire: 'trace.score-configs.update', service, readOnly: false, shape: projectScoped('id') }),
} as const;
