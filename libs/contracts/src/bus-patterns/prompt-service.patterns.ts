import { projectScoped, nothingToCheck } from './request-shape';
import type { Page } from '../lists/page';
import type { EvaluationsRecordRequest, FactsRecordedReply } from '../prompts/evaluation.messages';
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
} from '../prompts/prompt.messages';
import type { DeletedPromptView, PromptActivityView, PromptVersionView, PromptView } from '../prompts/prompt.views';
import type { PromptDiffRequest, PromptReleaseMoveRequest, PromptReleaseRemoveRequest, PromptReleasesRequest, PromptRenderRequest } from '../prompts/release.messages';
import type { PromptDiffView, PromptReleaseListView, PromptReleaseView, RenderedPromptView } from '../prompts/release.views';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';

/** What removing a release answers (the gateway answers 204). */
export interface ReleaseRemovedReply {
  removed: true;
}

const service = ServiceNames.PromptService;

/** What prompt-service answers: prompts, their versions and releases. */
export const promptServicePatterns = {
  PromptPing: pingPattern('prompt.ping', service),
  PromptCreate: busPattern<PromptCreateRequest, PromptView>()({ wire: 'prompt.prompts.create', service, readOnly: false, shape: projectScoped() }),
  PromptList: busPattern<PromptListRequest, Page<PromptView, PromptListKey>>()({ wire: 'prompt.prompts.list', service, readOnly: true, shape: projectScoped() }),
  PromptGet: busPattern<PromptGetRequest, PromptView>()({ wire: 'prompt.prompts.get', service, readOnly: true, shape: projectScoped() }),
  PromptUpdate: busPattern<PromptUpdateRequest, PromptView>()({ wire: 'prompt.prompts.update', service, readOnly: false, shape: projectScoped('id') }),
  PromptDelete: busPattern<PromptDeleteRequest, DeletedPromptView>()({ wire: 'prompt.prompts.delete', service, readOnly: false, shape: projectScoped('id') }),
  PromptVersions: busPattern<PromptHistoryRequest<PromptVersionKey>, Page<PromptVersionView, PromptVersionKey>>()({
    wire: 'prompt.prompts.versions',
    service,
    readOnly: true,
    shape: projectScoped('id'),
  }),
  PromptActivity: busPattern<PromptHistoryRequest<PromptActivityKey>, Page<PromptActivityView, PromptActivityKey>>()({
    wire: 'prompt.prompts.activity',
    service,
    readOnly: true,
    shape: projectScoped('id'),
  }),
  PromptReleases: busPattern<PromptReleasesRequest, PromptReleaseListView>()({ wire: 'prompt.releases.list', service, readOnly: true, shape: projectScoped('id') }),
  PromptReleaseMove: busPattern<PromptReleaseMoveRequest, PromptReleaseView>()({ wire: 'prompt.releases.move', service, readOnly: false, shape: projectScoped('id') }),
  PromptReleaseRemove: busPattern<PromptReleaseRemoveRequest, ReleaseRemovedReply>()({ wire: 'prompt.releases.remove', service, readOnly: false, shape: projectScoped('id') }),
  PromptDiff: busPattern<PromptDiffRequest, PromptDiffView>()({ wire: 'prompt.prompts.diff', service, readOnly: true, shape: projectScoped('id') }),
  PromptRender: busPattern<PromptRenderRequest, RenderedPromptView>()({ wire: 'prompt.prompts.render', service, readOnly: true, shape: projectScoped('id') }),
  /** benchmark-service pushes its benchmarks and completed runs of prompts (what a release's gate judges by). */
  EvaluationsRecord: busPattern<EvaluationsRecordRequest, FactsRecordedReply>()({ wire: 'prompt.evaluations.record', service, readOnly: false, shape: nothingToCheck }),
} as const;
