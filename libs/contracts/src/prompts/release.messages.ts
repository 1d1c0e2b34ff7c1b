import type { ProjectContext } from '../context';
import type { MoveReleaseInput, RenderPromptInput } from './release.inputs';

export interface PromptReleasesRequest {
  ctx: ProjectContext;
  id: string;
}

export interface PromptReleaseMoveRequest {
  ctx: ProjectContext;
  id: string;
  name: string;
  input: MoveReleaseInput;
  /** The caller's key has `admin`: only then may the move set, change or remove the gate. */
  mayChangeGate: boolean;
}

export interface PromptReleaseRemoveRequest {
  ctx: ProjectContext;
  id: string;
  name: string;
  mayChangeGate: boolean;
}

export interface PromptDiffRequest {
  ctx: ProjectContext;
  id: string;
  from: number;
  to: number;
}

export interface PromptRenderRequest {
  ctx: ProjectContext;
  id: string;
  input: RenderPromptInput;
}
