import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Socket as IoSocket } from 'socket.io';
import { describe, expect, it, vi } from 'vitest';
import { handshakeToken, isSameOrigin, releaseHandshake, releaseUpgradeResponse } from './handshake';

describe('handshake', () => {
  it('keeps neither the upgrade request nor the token once connected', () => {
    const handshake = { headers: { authorization: 'Bearer t' }, auth: { token: 't' }, query: { EIO: '4' }, address: '127.0.0.1', time: String(new Date()), url: '/socket.io/?EIO=4' };
    const sockets = [1, 2].map(() => ({ conn: { request: { headers: { cookie: 'x' } }, transport: {} }, handshake: { ...handshake } }));
    for (const socket of sockets) releaseHandshake(socket as unknown as IoSocket);
    expect(sockets[0].conn.request).toBeNull();
    expect(sockets[0].handshake).toEqual({ headers: {}, time: '', address: '', xdomain: false, secure: false, issued: 0, url: '', query: {}, auth: {} });
    // One frozen handshake for every socket: none costs heap, and none can leak into another's.
    expect(sockets[1].handshake).toBe(sockets[0].handshake);
    expect(Object.isFrozen(sockets[0].handshake.auth)).toBe(true);
  });

  it("drops only the 'close' listener Engine.IO's stand-in response has just added", () => {
    const tcp = new EventEmitter();
    const own = () => undefined;
    tcp.on('close', own);
    tcp.once('close', () => undefined);
    const next = vi.fn();
    releaseUpgradeResponse({} as IncomingMessage, { socket: tcp } as unknown as ServerResponse, next);
    expect(tcp.rawListeners('close')).toEqual([own]);
    expect(next).toHaveBeenCalledWith();
    // The last listener is no once() wrapper: it is not the stand-in's.
    releaseUpgradeResponse({} as IncomingMessage, { socket: tcp } as unknown as ServerResponse, next);
    expect(tcp.rawListeners('close')).toEqual([own]);
  });

  it('leaves an ordinary HTTP response alone', () => {
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    const tcp = new EventEmitter();
    tcp.once('close', () => undefined);
    Object.defineProperty(response, 'socket', { value: tcp });
    const next = vi.fn();
    releaseUpgradeResponse(request, response, next);
    expect(tcp.listenerCount('close')).toBe(1);
    expect(next).toHaveBeenCalledOnce();
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
