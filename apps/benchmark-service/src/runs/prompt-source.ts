import { BusClient } from '@cinetrace/bus';
import { DomainError, Patterns, ProjectContext, PromptGetRequest, TaskPrompt } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';

/** The prompt a run's target renders, asked of prompt-service when the run starts. */
@Injectable()
export class PromptSource {
  constructor(private readonly bus: BusClient) {}

  async resolve(ctx: ProjectContext, id: string, version: number | undefined): Promise<TaskPrompt> {
    try {
      const request: PromptGetRequest = { ctx, id, ...(version !== undefined ? { version } : {}) };
      const prompt = await this.bus.request(Patterns.PromptGet, request);
      return { id: prompt.id, version: prompt.version, content: prompt.content };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') {
        const what = version === undefined ? `prompt '${id}'` : `version ${version} of prompt '${id}'`;
        throw DomainError.validation([{ path: 'target.promptId', message: `the benchmark's ${what} no longer exists` }], 'The run cannot start');
      }
      throw err;
    }
  }
}
