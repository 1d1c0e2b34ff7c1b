import type { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, Patterns, type FieldError, type ProjectContext, type PromptGetRequest } from '@cinetrace/contracts';
import type { TargetSpec } from './target-rules';

type PromptPick = { version?: number; release?: string };

/**
 * What a target names of a prompt that prompt-service does not have (the prompt, its version
 * or its release), each on its own field: refused when the benchmark is created, rather than
 * found out when a run cannot start. A release removed later still stops a start.
 */
export async function unknownTargetPrompt(bus: BusClient, ctx: ProjectContext, target: TargetSpec): Promise<FieldError[]> {
  const { promptId: id, promptVersion: version, promptRelease: release } = target;
  if (id === undefined) return [];
  const pick: PromptPick = version !== undefined ? { version } : release !== undefined ? { release } : {};
  if (await promptAt(bus, ctx, id, pick)) return [];
  // Only on the way to a refusal: asked again without the version or release, to say which is missing.
  const newest = Object.keys(pick).length ? await promptAt(bus, ctx, id, {}) : null;
  if (!newest) return [{ path: 'target.promptId', message: `names no prompt of this project ('${id}')` }];
  if (release !== undefined) return [{ path: 'target.promptRelease', message: `names no release of the prompt ('${release}')` }];
  return [{ path: 'target.promptVersion', message: `names no version of the prompt (its newest is ${newest.version})` }];
}

/** The prompt's version as picked, or null when prompt-service has no such prompt, version or release. */
async function promptAt(bus: BusClient, ctx: ProjectContext, id: string, pick: PromptPick): Promise<{ version: number } | null> {
  try {
    const request: PromptGetRequest = { ctx, id, ...pick };
    const { version } = await bus.request(Patterns.PromptGet, request);
    return { version };
  } catch (err) {
    if (err instanceof DomainError && err.code === ErrorCode.NotFound) return null;
    throw err;
  }
}
