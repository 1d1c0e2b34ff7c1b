import { isStartupChatter, logFormat } from './log-format';
import { withStartupAtDebug } from './quiet-startup';

describe('logFormat', () => {
  it('is readable at a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });
});

describe("Nest's startup chatter", () => {
  it('goes to debug (module initialized, route mapped), everything else stays where it was', () => {
    const calls: string[] = [];
    const record = (level: string) => (message: unknown) => void calls.push(`${level} ${String(message)}`);
    const logger = withStartupAtDebug({ log: record('info'), warn: record('warn'), error: record('error'), debug: record('debug') });
    logger.log('Mapped {/api/v1/projects, POST} route', 'RouterExplorer');
    logger.log('GatewayModule dependencies initialized', 'InstanceLoader');
    logger.log('Taking benchmark tasks, 64 at a time', 'BullTaskWorker');
    logger.warn('Bootstrap API key (shown once …)', 'Bootstrap');
    expect(calls).toEqual([
      'debug Mapped {/api/v1/projects, POST} route',
      'debug GatewayModule dependencies initialized',
      'info Taking benchmark tasks, 64 at a time',
      'warn Bootstrap API key (shown once …)',
    ]);
    expect(isStartupChatter(['NestApplication'])).toBe(true);
    expect(isStartupChatter([])).toBe(false);
  });
});
