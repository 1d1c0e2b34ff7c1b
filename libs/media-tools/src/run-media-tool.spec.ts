import { expect } from '@jest/globals';
import { getPriority } from 'node:os';
import { runMediaTool } from './run-media-tool';

/** A tool that answers its own nice value, read once its parent had time to set it. */
const ownNiceness = ['-e', "setTimeout(() => process.stdout.write(String(require('node:os').getPriority())), 300)"];

describe('runMediaTool', () => {
  it('runs the tool at the nice value asked, and at the service’s own without one', async () => {
    const own = getPriority();
    const lowered = await runMediaTool(process.execPath, ownNiceness, { timeoutMs: 10_000, maxOutputBytes: 100, niceness: 10 });
    expect(Number(lowered.stdout.toString())).toBe(Math.min(19, Math.max(own, 10)));
    const usual = await runMediaTool(process.execPath, ownNiceness, { timeoutMs: 10_000, maxOutputBytes: 100 });
    expect(Number(usual.stdout.toString())).toBe(own);
  });
});
