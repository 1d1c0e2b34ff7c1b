import type { LookupAddress, LookupOptions } from 'node:dns';
import { OutboundError } from './outbound-error';
import { publicOnlyLookup, type ResolveHost } from './public-lookup';

type LookupResult = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function lookupWith(allowPrivate: boolean, hostname: string, options: LookupOptions, resolve?: ResolveHost): Promise<LookupResult> {
  return new Promise((done) => publicOnlyLookup({ allowPrivate, resolve })(hostname, options, (error, address, family) => done({ error, address, family })));
}

const fixed =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('publicOnlyLookup', () => {
  it('hands every address of a public name to the socket', async () => {
    const result = await lookupWith(false, 'api.example.com', { all: true }, fixed('93.184.216.34', '2606:4700::1111'));
    expect(result.error).toBeNull();
    expect(result.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
  });

  it('answers with one address of the asked family when the socket wants one', async () => {
    const result = await lookupWith(false, 'api.example.com', { family: 6 }, fixed('93.184.216.34', '2606:4700::1111'));
    expect(result).toEqual({ error: null, address: '2606:4700::1111', family: 6 });
  });

  it('refuses a name when any of its addresses is private (DNS rebinding, split answers)', async () => {
    const result = await lookupWith(false, 'rebind.example.com', { all: true }, fixed('93.184.216.34', '169.254.169.254'));
    expect(result.error).toBeInstanceOf(OutboundError);
    expect(result.error).toMatchObject({ reason: 'refused_address', message: 'rebind.example.com resolves to a private, loopback or link-local address' });
    expect(result.error!.message).not.toContain('169.254');
  });

  it('refuses localhost as the system resolver answers it', async () => {
    const result = await lookupWith(false, 'localhost', { all: true });
    expect(result.error).toMatchObject({ reason: 'refused_address' });
  });

  it('lets private addresses through when allowed', async () => {
    const result = await lookupWith(true, 'localhost', { all: true }, fixed('127.0.0.1'));
    expect(result).toEqual({ error: null, address: [{ address: '127.0.0.1', family: 4 }], family: undefined });
  });

  it('passes resolver failures on and fails a name without an address of the asked family', async () => {
    const failing: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    expect((await lookupWith(false, 'nowhere.example', { all: true }, failing)).error).toMatchObject({ code: 'ENOTFOUND' });
    expect((await lookupWith(false, 'v4only.example', { family: 6 }, fixed('93.184.216.34'))).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});
