import { describe, expect, it } from 'vitest';
import { isPublicAddress, parseIPv6 } from './address-policy';

describe('outbound address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    'allows public %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('parses every IPv6 spelling to the same bytes', () => {
    const expected = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1];
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(expected);
    expect(parseIPv6('::ffff:7f00:0001')).toEqual(expected);
    expect(parseIPv6('[0:0:0:0:0:ffff:7f00:1]')).toEqual(expected);
    expect(parseIPv6('1::')).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(parseIPv6('127.0.0.1')).toBeNull();
  });
});
