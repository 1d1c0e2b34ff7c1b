import { BusClient } from '@cinetrace/bus';
import { DomainError, Patterns, ProjectContext, PromptGetRequest, TaskPrompt } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';

/** The prompt a run's target renders, asked of prompt-service when the run starts. */
@Injectable()
export class PromptSource {
  constructor(private readonly bus: BusClient) {}

  /** The prompt at `version`, or at the version `release` points at now, or the newest. */
  async resolve(ctx: ProjectContext, id: string, pick: { version?: number; release?: string }): Promise<TaskPrompt> {
    try {
      const request: PromptGetRequest = { ctx, id, ...definedOnly(pick) };
      const prompt = await this.bus.request(Patterns.PromptGet, request);
      return { id: prompt.id, version: prompt.version, content: prompt.content };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') {
        if (pick.release !== undefined) {
          const message = `the benchmark's prompt '${id}' has no release '${pick.release}' (or no longer exists)`;
          throw DomainError.validation([{ path: 'target.promptRelease', message }], 'The run cannot start');
        }
        const what = pick.version === undefined ? `prompt '${id}'` : `version ${pick.version} of prompt '${id}'`;
        throw DomainError.validation([{ path: 'target.promptId', message: `the benchmark's ${what} no longer exists` }], 'The run cannot start');
      }
      throw err;
    }
  }
}

const definedOnly = (pick: { version?: number; release?: string }) =>
  Object.fromEntries(Object.entries(pick).filter(([, value]) => value !== undefined)) as { version?: number; release?: string };
