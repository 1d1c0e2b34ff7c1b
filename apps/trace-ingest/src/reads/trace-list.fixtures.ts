import type { Page, TraceListKey, TraceListRequest, TraceSummaryView } from '@cinetrace/contracts';
import type { TraceReadsService } from './trace-reads.service';

/** A page of the trace list with its items read back from the JSON text the service writes (for specs). */
export async function listTraces(reads: TraceReadsService, request: TraceListRequest): Promise<Page<TraceSummaryView, TraceListKey>> {
  const page = await reads.list(request);
  return { items: JSON.parse(page.itemsJson) as TraceSummaryView[], nextKey: page.nextKey };
}
