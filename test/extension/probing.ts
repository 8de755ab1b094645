/**
 * What the probing suites share: the probing part of the test API, a fixture simulated, a real
 * HTTP server on 127.0.0.1 to probe, and settings set for one test.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ProbeLensApi } from '../../src/extension/extension';
import type { ProbingSession } from '../../src/extension/sessions/probingSession';
import type { ProbingApi } from '../../src/extension/registerProbing';
import { startHttpServer, type TestServer } from '../helpers/httpServers';
import { activateProbeLens, fixtureUri, openFixture } from './workbench';

/** The probing part of the test API (`activate()` returns it as `probing`). */
export async function probingApi(): Promise<ProbingApi> {
  const api: ProbeLensApi = await activateProbeLens();
  const probing = api.probing;
  assert.ok(probing, 'activate() returns `probing`: registerProbing is wired in extension.ts');
  return probing;
}

/**
 * The fixture `manifest` opened in an editor and simulated against the fixture `scenario` at
 * `speed`× (`probeLens.simulate`, as its lens runs it): the document and the session, which the
 * test disposes of.
 */
export async function simulateFixture(manifest: string, scenario: string, speed: number): Promise<{ document: vscode.TextDocument; session: ProbingSession }> {
  const document = await openFixture(manifest);
  const session = await vscode.commands.executeCommand<ProbingSession | undefined>('probeLens.simulate', { uri: document.uri, scenario: fixtureUri(scenario), speed });
  assert.ok(session, 'simulate returned the session');
  return { document, session };
}

/**
 * An HTTP server on 127.0.0.1 (test/helpers/httpServers.ts, which counts and tracks connections)
 * whose /healthz answers `status`; counts requests.
 */
export interface HealthServer extends TestServer {
  status: number;
  readonly requests: number;
}

export async function startHealthServer(): Promise<HealthServer> {
  const state = { status: 200, requests: 0 };
  const server = await startHttpServer((request, response) => {
    state.requests++;
    response.writeHead(request.url === '/healthz' ? state.status : 404, { 'content-type': 'text/plain' });
    response.end(request.url === '/healthz' && state.status === 200 ? 'ok' : 'not ok');
  });
  return {
    ...server,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    get requests() {
      return state.requests;
    },
  };
}

/** Sets a `probeLens.*` setting for the test and returns what restores it. */
export async function withSetting(key: string, value: unknown, target: vscode.ConfigurationTarget): Promise<() => Promise<void>> {
  const config = () => vscode.workspace.getConfiguration('probeLens');
  await config().update(key, value, target);
  return () => Promise.resolve(config().update(key, undefined, target));
}

