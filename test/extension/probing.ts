/**
 * What the probing suites share: the probing part of the test API, a real HTTP server on
 * 127.0.0.1 to probe, and settings set for one test.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../src/extension/extension';
import type { ProbingApi } from '../../src/extension/sessions/registerProbing';
import { activateProbeLens } from './workbench';

/** The probing part of the test API (`activate()` returns it as `probing`). */
export async function probingApi(): Promise<ProbingApi> {
  const api: ProbeLensApi = await activateProbeLens();
  const probing = api.probing;
  assert.ok(probing, 'activate() returns `probing`: registerProbing is wired in extension.ts');
  return probing;
}

/** An HTTP server on 127.0.0.1 whose /healthz answers `status`; counts requests and open connections. */
export interface HealthServer {
  readonly port: number;
  status: number;
  requests: number;
  readonly open: Set<Socket>;
  close(): Promise<void>;
}

export async function startHealthServer(): Promise<HealthServer> {
  const open = new Set<Socket>();
  const state = { status: 200, requests: 0 };
  const server: Server = createServer((request, response) => {
    state.requests++;
    response.writeHead(request.url === '/healthz' ? state.status : 404, { 'content-type': 'text/plain' });
    response.end(request.url === '/healthz' && state.status === 200 ? 'ok' : 'not ok');
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    get requests() {
      return state.requests;
    },
    open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sets a `probeLens.*` setting for the test and returns what restores it. */
export async function withSetting(key: string, value: unknown, target: vscode.ConfigurationTarget): Promise<() => Promise<void>> {
  const config = () => vscode.workspace.getConfiguration('probeLens');
  await config().update(key, value, target);
  return () => Promise.resolve(config().update(key, undefined, target));
}

