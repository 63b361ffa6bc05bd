import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io';
import { handshakeToken, isSameOrigin, releaseHandshake } from './handshake';

describe('handshake', () => {
  it('keeps neither the upgrade request nor the token once connected', () => {
    const socket = { conn: { request: { headers: { cookie: 'x' } } }, handshake: { headers: { authorization: 'Bearer t' }, auth: { token: 't' }, query: { EIO: '4' }, address: '127.0.0.1' } };
    releaseHandshake(socket as unknown as Socket);
    expect(socket.conn.request).toBeNull();
    expect(socket.handshake).toEqual({ headers: {}, auth: {}, query: {}, address: '127.0.0.1' });
  });

  it('takes the token from auth first, then from a Bearer header', () => {
    expect(handshakeToken({ auth: { token: 'abc' }, headers: { authorization: 'Bearer xyz' } })).toBe('abc');
    expect(handshakeToken({ auth: {}, headers: { authorization: 'Bearer xyz' } })).toBe('xyz');
    expect(handshakeToken({ auth: {}, headers: { authorization: 'bearer xyz' } })).toBe('xyz');
  });

  it('finds no token in empty or foreign credentials', () => {
    expect(handshakeToken({ auth: {}, headers: {} })).toBeNull();
    expect(handshakeToken({ auth: { token: '   ' }, headers: {} })).toBeNull();
    expect(handshakeToken({ auth: { token: 42 }, headers: {} })).toBeNull();
    expect(handshakeToken({ auth: {}, headers: { authorization: 'Basic dXNlcjpwYXNz' } })).toBeNull();
    expect(handshakeToken({ auth: {}, headers: { authorization: 'Bearer' } })).toBeNull();
  });

  it('admits its own origin, the public URL and clients that send none', () => {
    expect(isSameOrigin({ headers: { host: 'app.example:3000', origin: 'http://app.example:3000' } })).toBe(true);
    expect(isSameOrigin({ headers: { host: 'app.example:3000' } })).toBe(true);
    expect(isSameOrigin({ headers: { host: '10.0.0.5:3000', origin: 'https://pluma.example' } }, 'https://pluma.example')).toBe(true);
    expect(isSameOrigin({ headers: { host: '10.0.0.5:3000', 'x-forwarded-host': 'pluma.example', origin: 'https://pluma.example' } })).toBe(true);
  });

  it('refuses other origins', () => {
    expect(isSameOrigin({ headers: { host: 'app.example:3000', origin: 'https://evil.example' } })).toBe(false);
    expect(isSameOrigin({ headers: { host: 'app.example:3000', origin: 'http://app.example:4000' } })).toBe(false);
    expect(isSameOrigin({ headers: { host: 'app.example:3000', origin: 'null' } })).toBe(false);
    expect(isSameOrigin({ headers: { host: '10.0.0.5:3000', origin: 'https://evil.example' } }, 'https://pluma.example')).toBe(false);
  });
});
