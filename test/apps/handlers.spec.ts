import { BenchmarkServiceEnv, BenchmarkServiceModule } from '@cinetrace/benchmark-service';
import { handledPatterns } from '@cinetrace/bus';
import { ServiceNames, ServicePatterns, type ServiceName } from '@cinetrace/contracts';
import { MediaServiceEnv, MediaServiceModule } from '@cinetrace/media-service';
import { ProjectServiceEnv, ProjectServiceModule } from '@cinetrace/project-service';
import { PromptServiceEnv, PromptServiceModule } from '@cinetrace/prompt-service';
import { TraceIngestEnv, TraceIngestModule } from '@cinetrace/trace-ingest';
import type { DynamicModule, Type } from '@nestjs/common';

// ServicePatterns is what a service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
// Building a module opens nothing, so what it is wired to is left out.
const modules: Record<ServiceName, () => DynamicModule> = {
  [ServiceNames.ProjectService]: () => ProjectServiceModule.register(new ProjectServiceEnv()),
  [ServiceNames.PromptService]: () => PromptServiceModule.register(new PromptServiceEnv()),
  [ServiceNames.TraceIngest]: () => TraceIngestModule.register(new TraceIngestEnv(), {} as never, {} as never),
  [ServiceNames.BenchmarkService]: () => BenchmarkServiceModule.register(new BenchmarkServiceEnv(), {} as never),
  [ServiceNames.MediaService]: () => MediaServiceModule.register(new MediaServiceEnv(), {} as never),
};

describe.each(Object.entries(modules))('%s handlers', (service, module) => {
  const { controllers = [] } = module();
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns[service as ServiceName]].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
