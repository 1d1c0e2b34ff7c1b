import { ServiceEnv, ToInt } from '@cinetrace/config';
import { IsInt, Max, Min } from 'class-validator';

/** Environment of prompt-service; validated at boot (see validateEnv): the bus, its store, logs and probes. */
export class PromptServiceEnv extends ServiceEnv {
  /** How long a request of its bus client may take; prompt-service asks no other service now, so nothing waits on it. */
  @ToInt() @IsInt() @Min(100) @Max(60_000) BUS_TIMEOUT_MS = 5000;
}
