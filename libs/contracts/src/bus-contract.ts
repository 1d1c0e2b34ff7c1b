import type { ApiKeyCreateRequest, ApiKeyListKey, ApiKeyListRequest, ApiKeyRevokeRequest } from './api-keys/api-key.messages';
import type { ApiKeyView, StoredApiKeyView } from './api-keys/api-key.views';
import type { AuthResolveReply, AuthResolveRequest } from './auth/auth.messages';
import type { BenchmarkCreateRequest, BenchmarkListKey, BenchmarkListRequest, BenchmarkRequest } from './benchmarks/benchmark.messages';
import type { BenchmarkView, RunView } from './benchmarks/benchmark.views';
import type { RunListKey, RunListRequest, RunStartRequest, TaskListRequest } from './benchmarks/run.messages';
import type { TaskOutputReply, TaskOutputRequest } from './benchmarks/task.messages';
import type { RunStartedView, TaskPage } from './benchmarks/run.views';
import type {
  DatasetCreateRequest,
  DatasetItemKey,
  DatasetItemsAddRequest,
  DatasetItemsRequest,
  DatasetListKey,
  DatasetListRequest,
  DatasetRequest,
} from './datasets/dataset.messages';
import type { DatasetItemView, DatasetItemsAddedView, DatasetView, DeletedView } from './datasets/dataset.views';
import type { Page, TextPage } from './lists/page';
import type { MediaListKey, MediaListRequest, MediaRegisterRequest, MediaRequest } from './media/media.messages';
import type { MediaBlobView, MediaRegisteredView, MediaView } from './media/media.views';
import type {
  MediaAnnotationCountsReply,
  MediaAnnotationCountsRequest,
  MediaAnnotationCreateRequest,
  MediaAnnotationListKey,
  MediaAnnotationListRequest,
} from './media/annotation.messages';
import type { MediaAnnotationView } from './media/annotation.views';
import type { MediaFrameRequest, MediaStoryboardReply } from './media/frame.messages';
import type { MediaFrameBlobView } from './media/frame.views';
import type { MediaCopiesAcceptedView, MediaCopiesRequest } from './media/trace-media.messages';
import type { OrganizationCreateRequest } from './organizations/organization.messages';
import type { StoredOrganizationView } from './organizations/organization.views';
import type { ProjectCreateRequest, ProjectGetRequest, ProjectListKey, ProjectListRequest } from './projects/project.messages';
import type { ProjectView } from './projects/project.view';
import type {
  PromptActivityKey,
  PromptCreateRequest,
  PromptDeleteRequest,
  PromptGetRequest,
  PromptHistoryRequest,
  PromptListKey,
  PromptListRequest,
  PromptUpdateRequest,
  PromptVersionKey,
} from './prompts/prompt.messages';
import type { DeletedPromptView, PromptActivityView, PromptVersionView, PromptView } from './prompts/prompt.views';
import type { EvaluationsRecordRequest, FactsRecordedReply } from './prompts/evaluation.messages';
import type { PromptDiffRequest, PromptReleaseMoveRequest, PromptReleaseRemoveRequest, PromptReleasesRequest, PromptRenderRequest } from './prompts/release.messages';
import type { PromptDiffView, PromptReleaseListView, PromptReleaseView, RenderedPromptView } from './prompts/release.views';
import type {
  SecretActivityRequest,
  SecretCreateRequest,
  SecretIntakeKeyReply,
  SecretListKey,
  SecretListRequest,
  SecretRequest,
  SecretResolveReply,
  SecretResolveRequest,
  SecretReferencesRecordRequest,
  SecretRotateRequest,
  SecretUsesCheckReply,
  SecretUsesCheckRequest,
} from './secrets/secret.messages';
import type { SecretActivityView, SecretView } from './secrets/secret.views';
import type { IngestReceiptsReply, IngestReceiptsRequest, SpanParentsReply, SpanParentsRequest, TraceGetRequest, TraceListKey, TraceListRequest } from './traces/trace.messages';
import type { TraceView } from './traces/trace.views';
import type { Pattern } from './patterns';
import { Patterns } from './wire-names';

/** A service's answer to its ping: up, with the states of its own dependencies. */
export interface PingReply {
  status: 'ok';
  checks?: Record<string, string>;
}

/** The empty request of a pattern that takes none (pings, the intake key). */
export type NoRequest = Record<string, never>;

/** What removing a release answers (the gateway answers 204). */
export interface ReleaseRemovedReply {
  removed: true;
}

/** What revoking a key answers (the gateway answers 204). */
export interface RevokedReply {
  id: string;
  revoked: true;
}

/**
 * Each request-reply pattern's request and reply: what `BusClient.request` takes and
 * gives, and what the handler of the pattern (`@Handles`) must accept and answer.
 */
export interface BusContract {
  [Patterns.AuthResolve]: { request: AuthResolveRequest; reply: AuthResolveReply };
  [Patterns.ProjectCreate]: { request: ProjectCreateRequest; reply: ProjectView };
  [Patterns.ProjectList]: { request: ProjectListRequest; reply: Page<ProjectView, ProjectListKey> };
  [Patterns.ProjectGet]: { request: ProjectGetRequest; reply: ProjectView };
  [Patterns.ApiKeyCreate]: { request: ApiKeyCreateRequest; reply: StoredApiKeyView };
  [Patterns.ApiKeyList]: { request: ApiKeyListRequest; reply: Page<ApiKeyView, ApiKeyListKey> };
  [Patterns.ApiKeyRevoke]: { request: ApiKeyRevokeRequest; reply: RevokedReply };
  [Patterns.OrganizationCreate]: { request: OrganizationCreateRequest; reply: StoredOrganizationView };
  [Patterns.SecretCreate]: { request: SecretCreateRequest; reply: SecretView };
  [Patterns.SecretList]: { request: SecretListRequest; reply: Page<SecretView, SecretListKey> };
  [Patterns.SecretRotate]: { request: SecretRotateRequest; reply: SecretView };
  [Patterns.SecretDelete]: { request: SecretRequest; reply: DeletedView };
  [Patterns.SecretActivity]: { request: SecretActivityRequest; reply: Page<SecretActivityView, string> };
  [Patterns.SecretIntakeKey]: { request: NoRequest; reply: SecretIntakeKeyReply };
  [Patterns.SecretUsesCheck]: { request: SecretUsesCheckRequest; reply: SecretUsesCheckReply };
  [Patterns.SecretResolve]: { request: SecretResolveRequest; reply: SecretResolveReply };
  [Patterns.SecretReferencesRecord]: { request: SecretReferencesRecordRequest; reply: FactsRecordedReply };
  [Patterns.PromptCreate]: { request: PromptCreateRequest; reply: PromptView };
  [Patterns.PromptList]: { request: PromptListRequest; reply: Page<PromptView, PromptListKey> };
  [Patterns.PromptGet]: { request: PromptGetRequest; reply: PromptView };
  [Patterns.PromptUpdate]: { request: PromptUpdateRequest; reply: PromptView };
  [Patterns.PromptDelete]: { request: PromptDeleteRequest; reply: DeletedPromptView };
  [Patterns.PromptVersions]: { request: PromptHistoryRequest<PromptVersionKey>; reply: Page<PromptVersionView, PromptVersionKey> };
  [Patterns.PromptActivity]: { request: PromptHistoryRequest<PromptActivityKey>; reply: Page<PromptActivityView, PromptActivityKey> };
  [Patterns.PromptReleases]: { request: PromptReleasesRequest; reply: PromptReleaseListView };
  [Patterns.PromptReleaseMove]: { request: PromptReleaseMoveRequest; reply: PromptReleaseView };
  [Patterns.PromptReleaseRemove]: { request: PromptReleaseRemoveRequest; reply: ReleaseRemovedReply };
  [Patterns.PromptDiff]: { request: PromptDiffRequest; reply: PromptDiffView };
  [Patterns.PromptRender]: { request: PromptRenderRequest; reply: RenderedPromptView };
  [Patterns.EvaluationsRecord]: { request: EvaluationsRecordRequest; reply: FactsRecordedReply };
  [Patterns.TraceList]: { request: TraceListRequest; reply: TextPage<TraceListKey> };
  [Patterns.TraceGet]: { request: TraceGetRequest; reply: TraceView };
  [Patterns.SpanParents]: { request: SpanParentsRequest; reply: SpanParentsReply };
  [Patterns.IngestReceipts]: { request: IngestReceiptsRequest; reply: IngestReceiptsReply };
  [Patterns.DatasetCreate]: { request: DatasetCreateRequest; reply: DatasetView };
  [Patterns.DatasetList]: { request: DatasetListRequest; reply: Page<DatasetView, DatasetListKey> };
  [Patterns.DatasetGet]: { request: DatasetRequest; reply: DatasetView };
  [Patterns.DatasetDelete]: { request: DatasetRequest; reply: DeletedView };
  [Patterns.DatasetItemsAdd]: { request: DatasetItemsAddRequest; reply: DatasetItemsAddedView };
  [Patterns.DatasetItems]: { request: DatasetItemsRequest; reply: Page<DatasetItemView, DatasetItemKey> };
  [Patterns.BenchmarkCreate]: { request: BenchmarkCreateRequest; reply: BenchmarkView };
  [Patterns.BenchmarkList]: { request: BenchmarkListRequest; reply: Page<BenchmarkView, BenchmarkListKey> };
  [Patterns.BenchmarkGet]: { request: BenchmarkRequest; reply: BenchmarkView };
  [Patterns.BenchmarkDelete]: { request: BenchmarkRequest; reply: DeletedView };
  [Patterns.RunStart]: { request: RunStartRequest; reply: RunStartedView };
  [Patterns.RunList]: { request: RunListRequest; reply: Page<RunView, RunListKey> };
  [Patterns.TaskList]: { request: TaskListRequest; reply: TaskPage };
  [Patterns.TaskOutput]: { request: TaskOutputRequest; reply: TaskOutputReply };
  [Patterns.MediaRegister]: { request: MediaRegisterRequest; reply: MediaRegisteredView };
  [Patterns.MediaList]: { request: MediaListRequest; reply: Page<MediaView, MediaListKey> };
  [Patterns.MediaGet]: { request: MediaRequest; reply: MediaView };
  [Patterns.MediaBlob]: { request: MediaRequest; reply: MediaBlobView };
  [Patterns.MediaFrame]: { request: MediaFrameRequest; reply: MediaFrameBlobView };
  [Patterns.MediaStoryboard]: { request: MediaRequest; reply: MediaStoryboardReply };
  [Patterns.MediaAnnotationCreate]: { request: MediaAnnotationCreateRequest; reply: MediaAnnotationView };
  [Patterns.MediaAnnotationList]: { request: MediaAnnotationListRequest; reply: Page<MediaAnnotationView, MediaAnnotationListKey> };
  [Patterns.MediaAnnotationCounts]: { request: MediaAnnotationCountsRequest; reply: MediaAnnotationCountsReply };
  [Patterns.MediaCopiesRequest]: { request: MediaCopiesRequest; reply: MediaCopiesAcceptedView };
  [Patterns.ProjectPing]: { request: NoRequest; reply: PingReply };
  [Patterns.PromptPing]: { request: NoRequest; reply: PingReply };
  [Patterns.TracePing]: { request: NoRequest; reply: PingReply };
  [Patterns.BenchmarkPing]: { request: NoRequest; reply: PingReply };
  [Patterns.MediaPing]: { request: NoRequest; reply: PingReply };
}

export type RequestOf<P extends Pattern> = BusContract[P]['request'];
export type ReplyOf<P extends Pattern> = BusContract[P]['reply'];

/** Every pattern has its entry: a pattern added without one fails to compile here. */
export const BUS_CONTRACT_IS_COMPLETE: [Exclude<Pattern, keyof BusContract>] extends [never] ? true : never = true;
