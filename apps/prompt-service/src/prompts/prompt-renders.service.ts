import { DomainError, ErrorCode, PromptDiffRequest, PromptDiffView, PromptRenderRequest, RenderedPromptView } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';
import { PromptReadsService } from './prompt-reads.service';
import { diffVersions } from './prompt-diff';
import { RENDERED_CONTENT_MAX, fillVariables } from './prompt-text';

/** What is derived from a prompt's versions without changing them: a diff of two, a render of one. */
@Injectable()
export class PromptRendersService {
  constructor(private readonly reads: PromptReadsService) {}

  async diff({ ctx, id, from, to }: PromptDiffRequest): Promise<PromptDiffView> {
    const older = await this.reads.get({ ctx, id, version: from });
    const newer = await this.reads.get({ ctx, id, version: to });
    return { from, to, ...diffVersions(older, newer) };
  }

  async render({ ctx, id, input }: PromptRenderRequest): Promise<RenderedPromptView> {
    if (input.version !== undefined && input.release !== undefined) {
      throw DomainError.validation([{ path: 'release', message: 'takes the place of version: name one or the other' }]);
    }
    const prompt = await this.reads.get({ ctx, id, version: input.version, release: input.release });
    const { content, missing, tooLong } = fillVariables(prompt.content, input.variables);
    if (tooLong) {
      throw DomainError.validation([{ path: 'variables', message: `would make the rendered content longer than ${RENDERED_CONTENT_MAX} characters` }]);
    }
    if (missing.length) {
      throw new DomainError(
        ErrorCode.MissingVariables,
        `Version ${prompt.version} of the prompt needs a value for ${missing.map((name) => `'${name}'`).join(', ')}`,
        missing.map((name) => ({ path: `variables.${name}`, message: `is required by version ${prompt.version} of the prompt` })),
      );
    }
    return { version: prompt.version, content, variables: prompt.variables };
  }
}
