import { isPublicAddress } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '240.0.0.1',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    ['mapped', '::ffff:127.0.0.1'],
    ['mapped, hex', '::ffff:7f00:1'],
    ['mapped, in full', '0:0:0:0:0:ffff:7f00:1'],
    ['mapped private', '::ffff:10.0.0.1'],
    ['IPv4-compatible', '::127.0.0.1'],
    ['IPv4-compatible, public tail', '::8.8.8.8'],
    ['NAT64', '64:ff9b::127.0.0.1'],
    ['local NAT64', '64:ff9b:1::808:808'],
    ['SIIT', '::ffff:0:a00:1'],
    ['6to4', '2002:a9fe:a9fe::1'],
    ['Teredo with a private client', '2001:0:808:808:0:0:f5ff:fffe'],
  ])('refuses an IPv6 address embedding a non-public IPv4 one (%s: %s)', (_, ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700::1111', '[2606:4700::1111]', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])(
    'accepts %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each(['127.1', '0x7f.1', '2130706433', 'localhost', 'example.com', '', '[::1'])('refuses %j, which is not an address in canonical notation', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});
