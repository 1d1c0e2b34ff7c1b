import { BusController, Handles } from '@cinetrace/bus';
import { IngestReceiptsRequest, Patterns, SpanParentsRequest, TraceGetRequest, TraceListRequest } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { TraceReadsService } from './trace-reads.service';

/** Bus adapter for trace reads (writes arrive on the trace stream, not as requests). */
@BusController()
export class TracesBusController {
  constructor(private readonly reads: TraceReadsService) {}

  @Handles(Patterns.TraceGet)
  get(@Payload() request: TraceGetRequest) {
    return this.reads.get(request);
  }

  @Handles(Patterns.TraceList)
  list(@Payload() request: TraceListRequest) {
    return this.reads.list(request);
  }

  @Handles(Patterns.SpanParents)
  parents(@Payload() request: SpanParentsRequest) {
    return this.reads.parentsOf(request.ctx, request.traceId, request.spanIds);
  }

  @Handles(Patterns.IngestReceipts)
  receipts(@Payload() request: IngestReceiptsRequest) {
    return this.reads.receipts(request.ctx, request.ingestIds);
  }
}
