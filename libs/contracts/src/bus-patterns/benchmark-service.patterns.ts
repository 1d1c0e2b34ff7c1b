import type { BenchmarkCreateRequest, BenchmarkListKey, BenchmarkListRequest, BenchmarkRequest } from '../benchmarks/benchmark.messages';
import type { BenchmarkView, RunView } from '../benchmarks/benchmark.views';
import type { RunListKey, RunListRequest, RunStartRequest, TaskListRequest } from '../benchmarks/run.messages';
import type { RunStartedView, TaskPage } from '../benchmarks/run.views';
import type { TaskOutputReply, TaskOutputRequest } from '../benchmarks/task.messages';
import { projectScoped } from './request-shape';
import type {
  DatasetCreateRequest,
  DatasetItemKey,
  DatasetItemsAddRequest,
  DatasetItemsRequest,
  DatasetListKey,
  DatasetListRequest,
  DatasetRequest,
} from '../datasets/dataset.messages';
import type { DatasetItemView, DatasetItemsAddedView, DatasetView, DeletedView } from '../datasets/dataset.views';
import type { Page } from '../lists/page';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';

const service = ServiceNames.BenchmarkService;

/**
 * What benchmark-service answers: datasets, benchmarks, their runs and tasks. Retired wire names,
 * never to be reused: 'benchmark.runs.of-prompt', 'benchmark.secrets.references'.
 */
export const benchmarkServicePatterns = {
  BenchmarkPing: pingPattern('benchmark.ping', service),
  DatasetCreate: busPattern<DatasetCreateRequest, DatasetView>()({ wire: 'benchmark.datasets.create', service, readOnly: false, shape: projectScoped() }),
  DatasetList: busPattern<DatasetListRequest, Page<DatasetView, DatasetListKey>>()({ wire: 'benchmark.datasets.list', service, readOnly: true, shape: projectScoped() }),
  DatasetGet: busPattern<DatasetRequest, DatasetView>()({ wire: 'benchmark.datasets.get', service, readOnly: true, shape: projectScoped('id') }),
  DatasetDelete: busPattern<DatasetRequest, DeletedView>()({ wire: 'benchmark.datasets.delete', service, readOnly: false, shape: projectScoped('id') }),
  DatasetItemsAdd: busPattern<DatasetItemsAddRequest, DatasetItemsAddedView>()({ wire: 'benchmark.datasets.items.add', service, readOnly: false, shape: projectScoped('id') }),
  DatasetItems: busPattern<DatasetItemsRequest, Page<DatasetItemView, DatasetItemKey>>()({ wire: 'benchmark.datasets.items', service, readOnly: true, shape: projectScoped('id') }),
  BenchmarkCreate: busPattern<BenchmarkCreateRequest, BenchmarkView>()({ wire: 'benchmark.benchmarks.create', service, readOnly: false, shape: projectScoped() }),
  BenchmarkList: busPattern<BenchmarkListRequest, Page<BenchmarkView, BenchmarkListKey>>()({ wire: 'benchmark.benchmarks.list', service, readOnly: true, shape: projectScoped() }),
  BenchmarkGet: busPattern<BenchmarkRequest, BenchmarkView>()({ wire: 'benchmark.benchmarks.get', service, readOnly: true, shape: projectScoped('id') }),
  BenchmarkDelete: busPattern<BenchmarkRequest, DeletedView>()({ wire: 'benchmark.benchmarks.delete', service, readOnly: false, shape: projectScoped('id') }),
  RunStart: busPattern<RunStartRequest, RunStartedView>()({ wire: 'benchmark.runs.start', service, readOnly: false, shape: projectScoped('benchmarkId') }),
  RunList: busPattern<RunListRequest, Page<RunView, RunListKey>>()({ wire: 'benchmark.runs.list', service, readOnly: true, shape: projectScoped('benchmarkId') }),
  TaskList: busPattern<TaskListRequest, TaskPage>()({ wire: 'benchmark.tasks.list', service, readOnly: true, shape: projectScoped('benchmarkId') }),
  /** benchmark-worker asks for an item's output in another run of the project (video_similarity against a run). */
  TaskOutput: busPattern<TaskOutputRequest, TaskOutputReply>()({ wire: 'benchmark.tasks.output', service, readOnly: false, shape: { strings: ['projectId', 'runId', 'itemId'] } }),
} as const;
