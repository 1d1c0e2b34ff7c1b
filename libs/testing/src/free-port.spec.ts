import { existsSync, mkdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const claims = join(tmpdir(), 'cinetrace-test-ports');
/** Math.random's value that makes freePort draw `port` (its range starts at 20,000 and holds 12,000). */
const drawing = (port: number) => (port - 20_000 + 0.5) / 12_000;

describe('freePort', () => {
  const made: string[] = [];
  /** A claim on `port` as another test process would leave it, `ageMs` old. */
  const claimedElsewhere = (port: number, ageMs: number) => {
    mkdirSync(claims, { recursive: true });
    const file = join(claims, String(port));
    writeFileSync(file, '');
    const when = (Date.now() - ageMs) / 1000;
    utimesSync(file, when, when);
    made.push(file);
  };
  afterEach(() => {
    jest.restoreAllMocks();
    for (const file of made.splice(0)) if (existsSync(file)) unlinkSync(file);
  });

  it('claims the port it hands out, so another test process on the machine skips it', async () => {
    const port = await freePort();
    const file = join(claims, String(port));
    made.push(file);
    expect(existsSync(file)).toBe(true);
  });

  it('skips a port another process claimed a moment ago, free as it is', async () => {
    const taken = 24_321;
    claimedElsewhere(taken, 1000);
    jest.spyOn(Math, 'random').mockReturnValueOnce(drawing(taken)).mockReturnValueOnce(drawing(24_322));
    const port = await freePort();
    made.push(join(claims, String(port)));
    expect(port).toBe(24_322);
  });

  it('takes over a claim left by a killed process long ago when nothing listens on its port', async () => {
    const left = 24_323;
    claimedElsewhere(left, 60 * 60_000);
    jest.spyOn(Math, 'random').mockReturnValueOnce(drawing(left));
    expect(await freePort()).toBe(left);
  });
});
