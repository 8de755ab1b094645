import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { probeHttp, type HttpProbeOptions, type HttpProbeTarget } from '../../../src/core/probers/http';
import { formatProbeUrl } from '../../../src/core/probers/probeUrl';
import { MAX_OUTPUT_BYTES, probeUserAgent, type ProbeOutcome } from '../../../src/core/probers/types';
import { freePort, startHttpServer, startHttpsServer, startRawServer, withServer, type TestServer } from '../../helpers/httpServers';
import { activeCounts, grew } from '../../helpers/activeResources';

const USER_AGENT = probeUserAgent(33);
/** How late past its deadline an attempt may end (timers, loopback, a loaded CI machine). */
const SLACK_MS = 250;
/** The deadline of the tests that wait for it. */
const SHORT_MS = 500;

function target(port: number, fields: Partial<HttpProbeTarget> = {}): HttpProbeTarget {
  return { scheme: 'HTTP', host: '127.0.0.1', port, path: '/', headers: [], ...fields };
}

/**
 * Probes, then checks the attempt left nothing behind (design §5): every socket and timer it
 * created is destroyed — async_hooks sees those undici unrefs, which `getActiveResourcesInfo()`
 * hides — the active resources did not grow, and the server saw its connections closed.
 */
async function probe(probeTarget: HttpProbeTarget, options: Partial<HttpProbeOptions> = {}, server?: TestServer) {
  const before = activeCounts();
  const created = new Map<number, string>();
  let recording = true;
  const hook = createHook({
    init(id, type) {
      if (recording && (type === 'TCPWRAP' || type === 'Timeout')) created.set(id, type);
    },
    destroy(id) {
      created.delete(id);
    },
  }).enable();
  const started = performance.now();
  let outcome: ProbeOutcome;
  try {
    outcome = await probeHttp(probeTarget, { timeoutMs: 1000, userAgent: USER_AGENT, ...options });
  } finally {
    recording = false;
  }
  const elapsedMs = performance.now() - started;
  for (let i = 0; i < 40; i += 1) {
    if (created.size === 0 && !grew(before, activeCounts()) && (server?.open() ?? 0) === 0) break;
    await sleep(25);
  }
  hook.disable();
  assert.deepEqual([...created.values()], [], 'sockets or timers created by the probe are still alive');
  assert.equal(grew(before, activeCounts()), false, `active resources grew: ${JSON.stringify(before)} → ${JSON.stringify(activeCounts())}`);
  if (server) assert.equal(server.open(), 0, 'the server still has a connection open');
  return { outcome, elapsedMs };
}



type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A handler that records every request it sees, then delegates. */
function recording(handler: Handler): { readonly seen: IncomingMessage[]; readonly handler: Handler } {
  const seen: IncomingMessage[] = [];
  return { seen, handler: (req, res) => (seen.push(req), handler(req, res)) };
}

function reply(status: number, body = '', headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** The request's header lines as sent (names in their case, in order), without Host and Connection. */
function sentHeaders(req: IncomingMessage): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return lines.filter((line) => !/^(host|connection):/i.test(line));
}

// --- loading ---------------------------------------------------------------------------------

// Must run first: it checks that nothing loaded undici before the first probe.
test('H5: importing the HTTP prober does not load undici; the first probe does', async () => {
  const undiciLoaded = (): boolean => Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]undici[\\/]/.test(file));
  assert.equal(undiciLoaded(), false);
  await withServer(startHttpServer(reply(200, 'ok')), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: 'ok' });
  });
  assert.equal(undiciLoaded(), true);
});

// --- H1: the URL -----------------------------------------------------------------------------

test('H1: formatProbeUrl builds the URL as the kubelet prints it (TestFormatURL and more)', () => {
  const cases: [scheme: string, host: string, port: number, path: string, url: string][] = [
    ['http', 'localhost', 93, '', 'http://localhost:93'],
    ['https', 'localhost', 93, '/path', 'https://localhost:93/path'],
    ['http', 'localhost', 93, '?foo', 'http://localhost:93?foo'],
    ['https', 'localhost', 93, '/path?bar', 'https://localhost:93/path?bar'],
    ['HTTP', '10.0.0.5', 8080, '/healthz', 'http://10.0.0.5:8080/healthz'],
    ['HTTPS', '::1', 8443, '/healthz', 'https://[::1]:8443/healthz'],
    ['', 'fd00::5', 80, '/', 'http://[fd00::5]:80/'],
    ['http', 'h', 1, 'healthz', 'http://h:1/healthz'],
    ['http', 'h', 1, '/ready?full=1&x=%20y', 'http://h:1/ready?full=1&x=%20y'],
    ['http', 'h', 1, '/p?', 'http://h:1/p?'],
    ['http', 'h', 1, '/a b', 'http://h:1/a%20b'],
    ['http', 'h', 1, '/a%2Fb', 'http://h:1/a%2Fb'],
    ['http', 'h', 1, '/p#frag', 'http://h:1/p#frag'],
    ['http', 'h', 1, '/é', 'http://h:1/%C3%A9'],
    // Unparsable: formatURL keeps the whole string as the path, which Go then escapes.
    ['http', 'h', 1, '/%zz?x', 'http://h:1/%25zz%3Fx'],
  ];
  for (const [scheme, host, port, path, url] of cases) assert.equal(formatProbeUrl(scheme, host, port, path), url, `${scheme} ${host} ${port} ${path}`);
});

test('H1: a URL that does not parse back (http.NewRequest) is a prober error, unknown, before any dial', async () => {
  const { outcome } = await probe({ scheme: 'HTTP', host: 'bad host', port: 80, path: '/', headers: [] });
  assert.deepEqual(outcome, { result: 'unknown', output: '', error: 'parse "http://bad%20host:80/": invalid URL escape "%20"' });
});

test('H1: the path and query string reach the server as Go sends them', async () => {
  const { seen, handler } = recording(reply(200));
  await withServer(startHttpServer(handler), async (server) => {
    const cases: [path: string, requestLine: string][] = [
      ['', '/'],
      ['?foo', '/?foo'],
      ['/ready?full=1&verbose', '/ready?full=1&verbose'],
      ['/p?', '/p?'],
      ['/a b', '/a%20b'],
      ['/p#frag', '/p'],
    ];
    for (const [path, requestLine] of cases) {
      assert.equal((await probe(target(server.port, { path }), {}, server)).outcome.result, 'success', path);
      assert.equal(seen.at(-1)?.url, requestLine, path);
    }
  });
});

test('H1: an IPv6 target is dialled in brackets and its Host is [::1]:<port>', async (t) => {
  let server: TestServer;
  try {
    server = await startHttpServer((req, res) => res.end(req.headers.host), '::1');
  } catch {
    t.skip('no IPv6 loopback here');
    return;
  }
  try {
    const { outcome } = await probe(target(server.port, { host: '::1' }), {}, server);
    assert.deepEqual(outcome, { result: 'success', output: `[::1]:${server.port}` });
  } finally {
    await server.close();
  }
});

// --- H9: status classes ----------------------------------------------------------------------

const STATUS_CLASSES: [status: number, outcome: ProbeOutcome][] = [
  [200, { result: 'success', output: 'body of 200' }],
  [204, { result: 'success', output: '' }],
  [304, { result: 'warning', output: 'Probe terminated redirects, Response body: ' }],
  [399, { result: 'warning', output: 'Probe terminated redirects, Response body: body of 399' }],
  [404, { result: 'failure', output: 'HTTP probe failed with statuscode: 404' }],
  [500, { result: 'failure', output: 'HTTP probe failed with statuscode: 500' }],
  [503, { result: 'failure', output: 'HTTP probe failed with statuscode: 503' }],
];

for (const [status, expected] of STATUS_CLASSES) {
  test(`H9: ${status} is a ${expected.result} with the exact output`, async () => {
    await withServer(startHttpServer(reply(status, `body of ${status}`)), async (server) => {
      assert.deepEqual((await probe(target(server.port), {}, server)).outcome, expected);
    });
  });
}

test('H9: a 101 to a plain GET is a failure with its status code', async () => {
  await withServer(startRawServer((socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n')), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'failure', output: 'HTTP probe failed with statuscode: 101' });
  });
});

// --- H10: redirects --------------------------------------------------------------------------

for (const status of [301, 302, 303, 307, 308]) {
  test(`H10: a relative same-host ${status} is followed and the final status decides`, async () => {
    const { seen, handler } = recording((req, res) => {
      if (req.url === '/') return reply(status, 'moved', { Location: '/new' })(req, res);
      if (req.url === '/bad') return reply(status, 'moved', { Location: '/fail' })(req, res);
      return reply(req.url === '/new' ? 200 : 500, 'final body')(req, res);
    });
    await withServer(startHttpServer(handler), async (server) => {
      assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: 'final body' });
      assert.deepEqual(
        seen.map((req) => req.url),
        ['/', '/new'],
      );
      assert.equal(server.accepted(), 2, 'one connection per request (keep-alive off)');
      assert.deepEqual((await probe(target(server.port, { path: '/bad' }), {}, server)).outcome, { result: 'failure', output: 'HTTP probe failed with statuscode: 500' });
    });
  });
}

test('H10: a Location resolves against the current URL as Go resolves it', async () => {
  let location = '';
  const { seen, handler } = recording((req, res) => (req.url === '/a/b/c?from=here' ? reply(302, '', { Location: location })(req, res) : reply(200)(req, res)));
  await withServer(startHttpServer(handler), async (server) => {
    const cases: [location: string, requested: string][] = [
      ['../d?x=1', '/a/d?x=1'],
      ['./e/../f', '/a/b/f'],
      ['?only=query', '/a/b/c?only=query'],
      [`//127.0.0.1:${server.port}/g`, '/g'],
      ['/h%2Fi/./j/../k', '/h%2Fi/k'],
    ];
    for (const [next, requested] of cases) {
      location = next;
      await probe(target(server.port, { path: '/a/b/c?from=here' }), {}, server);
      assert.equal(seen.at(-1)?.url, requested, next);
    }
  });
});

test('H10: an absolute redirect to the same host and port is followed', async () => {
  await withServer(startHttpServer((req, res) => (req.url === '/' ? reply(302, '', { Location: `http://127.0.0.1:${req.socket.localPort}/ok` })(req, res) : reply(200, 'ok')(req, res))), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: 'ok' });
  });
});

test('H10: a redirect to another port of the same hostname is followed (the port is ignored)', async () => {
  await withServer(startHttpServer((req, res) => res.end(`other port, Host ${req.headers.host}`)), async (other) => {
    await withServer(startHttpServer(reply(302, '', { Location: `http://127.0.0.1:${other.port}/success` })), async (server) => {
      assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: `other port, Host 127.0.0.1:${other.port}` });
      assert.equal(other.accepted(), 1);
    });
  });
});

test('H10: a redirect to another hostname is not followed: the 3xx is final, a warning with its body', async () => {
  await withServer(startHttpServer(reply(200, 'should not be reached')), async (other) => {
    for (const location of [`http://localhost:${other.port}/success`, 'http://0.0.0.0/fail']) {
      await withServer(startHttpServer(reply(301, 'moved elsewhere', { Location: location })), async (server) => {
        const { outcome } = await probe(target(server.port), {}, server);
        assert.deepEqual(outcome, { result: 'warning', output: 'Probe terminated redirects, Response body: moved elsewhere' }, location);
        assert.equal(server.accepted(), 1);
      });
    }
    assert.equal(other.accepted(), 0, 'localhost is another hostname than 127.0.0.1');
  });
});

test('H10 X1: a redirect loop is a failure, "stopped after 10 redirects", after exactly 10 requests', async () => {
  const { seen, handler } = recording(reply(302, 'loop body', { Location: '/loop' }));
  await withServer(startHttpServer(handler), async (server) => {
    const { outcome } = await probe(target(server.port, { path: '/loop' }), {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: 'Get "/loop": stopped after 10 redirects' });
    assert.equal(seen.length, 10);
  });
});

test('H10: 9 redirects then 200 succeed; 10 redirects then 200 fail (the 10th redirect is refused)', async () => {
  // /hop/N redirects to /hop/N-1; /hop/0 answers 200.
  const { seen, handler } = recording((req, res) => {
    const left = Number(req.url?.split('/')[2]);
    if (left > 0) reply(307, '', { Location: `/hop/${left - 1}` })(req, res);
    else reply(200, 'arrived')(req, res);
  });
  await withServer(startHttpServer(handler), async (server) => {
    assert.deepEqual((await probe(target(server.port, { path: '/hop/9' }), {}, server)).outcome, { result: 'success', output: 'arrived' });
    assert.equal(seen.length, 10);
    seen.length = 0;
    assert.deepEqual((await probe(target(server.port, { path: '/hop/10' }), {}, server)).outcome, { result: 'failure', output: 'Get "/hop/0": stopped after 10 redirects' });
    assert.deepEqual(seen.at(-1)?.url, '/hop/1', '/hop/0 is never requested');
  });
});

test('H10: a 3xx without Location is the final response: a warning', async () => {
  await withServer(startHttpServer(reply(302, 'nowhere to go')), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'warning', output: 'Probe terminated redirects, Response body: nowhere to go' });
  });
});

test('H10: 300 and 304 are never followed, even with a Location', async () => {
  for (const status of [300, 304]) {
    const { seen, handler } = recording(reply(status, status === 300 ? 'choices' : '', { Location: '/elsewhere' }));
    await withServer(startHttpServer(handler), async (server) => {
      const { outcome } = await probe(target(server.port), {}, server);
      assert.equal(outcome.result, 'warning', `${status}`);
      assert.equal(seen.length, 1, `${status}`);
    });
  }
});

test('H10: an unparsable Location is a failure worded as Go words it', async () => {
  await withServer(startHttpServer(reply(302, '', { Location: '/%zz' })), async (server) => {
    const { outcome } = await probe(target(server.port), {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": failed to parse Location header "/%zz": parse "/%zz": invalid URL escape "%zz"` });
  });
});

test('H10: a followed redirect repeats the original headers and adds Go\'s Referer', async () => {
  const { seen, handler } = recording((req, res) => (req.url === '/start' ? reply(302, '', { Location: '/next' })(req, res) : reply(200)(req, res)));
  await withServer(startHttpServer(handler), async (server) => {
    await probe(target(server.port, { path: '/start', headers: [{ name: 'X-Probe', value: 'yes' }] }), {}, server);
    assert.deepEqual(sentHeaders(seen[1] as IncomingMessage), ['User-Agent: kube-probe/1.33', 'Accept: */*', `Referer: http://127.0.0.1:${server.port}/start`, 'X-Probe: yes']);
  });
});

test('H10: Go stops repeating the body headers after a 301/302/303 hop, not after a 307/308', async () => {
  for (const [status, contentType] of [
    [302, undefined],
    [307, 'text/plain'],
  ] as const) {
    const { seen, handler } = recording((req, res) => (req.url === '/start' ? reply(status, '', { Location: '/next' })(req, res) : reply(200)(req, res)));
    await withServer(startHttpServer(handler), async (server) => {
      await probe(target(server.port, { path: '/start', headers: [{ name: 'Content-Type', value: 'text/plain' }] }), {}, server);
      assert.equal(seen[0]?.headers['content-type'], 'text/plain');
      assert.equal(seen[1]?.headers['content-type'], contentType, `${status}`);
    });
  }
});

test('H10: a redirect from HTTP to HTTPS on the same hostname is followed', async () => {
  await withServer(startHttpsServer(reply(200, 'secure')), async (secure) => {
    await withServer(startHttpServer(reply(301, '', { Location: `https://127.0.0.1:${secure.port}/` })), async (server) => {
      assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: 'secure' });
    });
  });
});

// --- H2–H4: headers --------------------------------------------------------------------------

test('H3: User-Agent kube-probe/<version> and Accept */* are sent by default, nothing else', async () => {
  const { seen, handler } = recording(reply(200));
  await withServer(startHttpServer(handler), async (server) => {
    await probe(target(server.port), {}, server);
    assert.deepEqual(sentHeaders(seen[0] as IncomingMessage), ['User-Agent: kube-probe/1.33', 'Accept: */*']);
  });
});

test('H3: a custom User-Agent or Accept replaces the default; an empty value removes the header', async () => {
  const { seen, handler } = recording(reply(200));
  await withServer(startHttpServer(handler), async (server) => {
    const cases: [headers: HttpProbeTarget['headers'], sent: string[]][] = [
      [[{ name: 'User-Agent', value: 'foo/1.0' }], ['User-Agent: foo/1.0', 'Accept: */*']],
      [[{ name: 'user-agent', value: '' }], ['Accept: */*']],
      [[{ name: 'Accept', value: 'application/json' }], ['User-Agent: kube-probe/1.33', 'Accept: application/json']],
      [[{ name: 'ACCEPT', value: '' }], ['User-Agent: kube-probe/1.33']],
      [
        [
          { name: 'Accept', value: '' },
          { name: 'User-Agent', value: '' },
        ],
        [],
      ],
    ];
    for (const [headers, sent] of cases) {
      await probe(target(server.port, { headers }), {}, server);
      assert.deepEqual(sentHeaders(seen.at(-1) as IncomingMessage), sent, JSON.stringify(headers));
    }
  });
});

test('H2: header names are canonicalised and repeated names accumulate in order', async () => {
  const { seen, handler } = recording(reply(200));
  await withServer(startHttpServer(handler), async (server) => {
    const headers = [
      { name: 'FOO-bAR', value: 'one' },
      { name: 'x-muffins-or-cupcakes', value: 'muffins' },
      { name: 'foo-bar', value: 'two' },
    ];
    await probe(target(server.port, { headers }), {}, server);
    assert.deepEqual(sentHeaders(seen[0] as IncomingMessage), ['User-Agent: kube-probe/1.33', 'Accept: */*', 'Foo-Bar: one', 'Foo-Bar: two', 'X-Muffins-Or-Cupcakes: muffins']);
  });
});

test('H2: an invalid header name or value is a failure before any connection, in Go\'s words', async () => {
  await withServer(startHttpServer(reply(200)), async (server) => {
    const name = await probe(target(server.port, { headers: [{ name: 'Bad Name', value: 'x' }] }), {}, server);
    assert.deepEqual(name.outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": net/http: invalid header field name "Bad Name"` });
    const value = await probe(target(server.port, { headers: [{ name: 'X-Bad', value: 'a\nb' }] }), {}, server);
    assert.deepEqual(value.outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": net/http: invalid header field value for "X-Bad"` });
    assert.equal(server.accepted(), 0);
  });
});

test('H4: Host is <ip>:<port> by default, a custom Host header otherwise (an empty one is ignored)', async () => {
  await withServer(startHttpServer((req, res) => res.end(req.headers.host)), async (server) => {
    assert.equal((await probe(target(server.port), {}, server)).outcome.output, `127.0.0.1:${server.port}`);
    const custom = await probe(target(server.port, { headers: [{ name: 'HOST', value: 'muffins.cupcakes.org' }] }), {}, server);
    assert.deepEqual(custom.outcome, { result: 'success', output: 'muffins.cupcakes.org' });
    const empty = await probe(target(server.port, { headers: [{ name: 'Host', value: '' }] }), {}, server);
    assert.equal(empty.outcome.output, `127.0.0.1:${server.port}`);
  });
});

test('H4: a custom Host survives a relative redirect, not an absolute one', async () => {
  await withServer(
    startHttpServer((req, res) => {
      if (req.url === '/relative') return reply(302, '', { Location: '/success' })(req, res);
      if (req.url === '/absolute') return reply(302, '', { Location: `http://127.0.0.1:${req.socket.localPort}/success` })(req, res);
      // TestHTTPProbeChecker_HostHeaderPreservedAfterRedirect
      return reply(req.headers.host === 'www.success.com' ? 200 : 400, req.headers.host)(req, res);
    }),
    async (server) => {
      const withHost = (path: string, host: string) => target(server.port, { path, headers: [{ name: 'Host', value: host }] });
      assert.deepEqual((await probe(withHost('/relative', 'www.success.com'), {}, server)).outcome, { result: 'success', output: 'www.success.com' });
      assert.deepEqual((await probe(withHost('/relative', 'www.fail.com'), {}, server)).outcome, { result: 'failure', output: 'HTTP probe failed with statuscode: 400' });
      assert.deepEqual((await probe(withHost('/absolute', 'www.success.com'), {}, server)).outcome, { result: 'failure', output: 'HTTP probe failed with statuscode: 400' });
    },
  );
});

// --- H5: transport ---------------------------------------------------------------------------

test('H5: one GET per connection, with Connection: close, no Accept-Encoding and no body', async () => {
  const { seen, handler } = recording((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.end(String(bytes)));
  });
  await withServer(startHttpServer(handler), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: '0' });
    const req = seen[0] as IncomingMessage;
    assert.equal(req.method, 'GET');
    assert.equal(req.headers.connection, 'close');
    assert.equal(req.headers['accept-encoding'], undefined);
    assert.equal(req.headers['content-length'], undefined);
    assert.equal(req.headers['transfer-encoding'], undefined);
  });
});

test('H5: HTTP_PROXY and http_proxy are ignored', async () => {
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy, NO_PROXY: process.env.NO_PROXY };
  await withServer(startHttpServer(reply(200, 'proxied')), async (proxy) => {
    await withServer(startHttpServer(reply(200, 'direct')), async (server) => {
      try {
        process.env.HTTP_PROXY = process.env.http_proxy = `http://127.0.0.1:${proxy.port}`;
        delete process.env.NO_PROXY;
        assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'success', output: 'direct' });
        assert.equal(proxy.accepted(), 0);
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    });
  });
});

test('H5: HTTPS with a self-signed certificate succeeds (not verified); SNI only for a hostname', async () => {
  await withServer(
    startHttpsServer((req, res) => res.end(`sni=${String((req.socket as unknown as { servername: unknown }).servername)}`)),
    async (server) => {
      const byIp = await probe(target(server.port, { scheme: 'HTTPS' }), {}, server);
      assert.deepEqual(byIp.outcome, { result: 'success', output: 'sni=false' });
      const byName = await probe(target(server.port, { scheme: 'HTTPS', host: 'localhost' }), {}, server);
      assert.deepEqual(byName.outcome, { result: 'success', output: 'sni=localhost' });
    },
  );
});

// --- H6–H8: deadline, transport errors, body ------------------------------------------------

test('H6: headers slower than the timeout are a failure, worded as Go\'s client timeout', async () => {
  await withServer(
    startHttpServer((_req, res) => {
      const timer = setTimeout(() => res.end('too late'), 3000);
      res.on('close', () => clearTimeout(timer));
    }),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port, { path: '/slow' }), { timeoutMs: SHORT_MS }, server);
      assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      assert.ok(elapsedMs >= SHORT_MS - 5 && elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
    },
  );
});

test('H6: one deadline covers the whole redirect chain; the message names the current URL', async () => {
  await withServer(
    startHttpServer((req, res) => {
      if (req.url === '/') return reply(302, '', { Location: '/slow' })(req, res);
      const timer = setTimeout(() => res.end(), 3000);
      res.on('close', () => clearTimeout(timer));
    }),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.equal(outcome.output, `Get "http://127.0.0.1:${server.port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
      assert.ok(elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
    },
  );
});

test('H7: connection refused is a failure with Go\'s dial error', async () => {
  const port = await freePort();
  const { outcome } = await probe(target(port, { path: '/healthz' }));
  assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused` });
});

test('H7: a server that closes without answering is a failure: EOF', async () => {
  await withServer(startRawServer((socket) => socket.end()), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": EOF` });
  });
});

test('H7: an HTTPS probe of a plain-HTTP port fails as Go says it', async () => {
  await withServer(startHttpServer(reply(200)), async (server) => {
    const { outcome } = await probe(target(server.port, { scheme: 'HTTPS' }), {}, server);
    assert.deepEqual(outcome, { result: 'failure', output: `Get "https://127.0.0.1:${server.port}/": http: server gave HTTP response to HTTPS client` });
  });
});

test('H7: broken responses are failures worded as Go\'s transport words them', async () => {
  const broken = (port: number, text: string): string => `Get "http://127.0.0.1:${port}/": net/http: HTTP/1.x transport connection broken: ${text}`;
  const cases: [answer: (socket: Socket) => void, output: (port: number) => string | RegExp][] = [
    [(socket) => socket.resetAndDestroy(), (port) => new RegExp(`^Get "http://127\\.0\\.0\\.1:${port}/": read tcp 127\\.0\\.0\\.1:\\d+->127\\.0\\.0\\.1:${port}: read: connection reset by peer$`)],
    [(socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Ty'), (port) => broken(port, 'unexpected EOF')],
    [(socket) => socket.end('HTTP/1.1 abc OK\r\n\r\n'), (port) => broken(port, 'malformed HTTP status code "abc"')],
    [(socket) => socket.end('HTTP/x 200 OK\r\n\r\n'), (port) => broken(port, 'malformed HTTP version "HTTP/x"')],
    [(socket) => socket.end('HTTP/1.1 200 OK\r\nGood: yes\r\nno colon\r\n\r\n'), (port) => broken(port, 'malformed MIME header line: no colon')],
    [(socket) => socket.end('HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:99999/\r\nContent-Length: 0\r\n\r\n'), () => 'Get "http://127.0.0.1:99999/": dial tcp: address 99999: invalid port'],
  ];
  for (const [answer, output] of cases) {
    await withServer(startRawServer((socket) => socket.once('data', () => answer(socket))), async (server) => {
      const { outcome } = await probe(target(server.port), {}, server);
      const expected = output(server.port);
      assert.equal(outcome.result, 'failure');
      assert.equal(outcome.error, undefined);
      if (typeof expected === 'string') assert.equal(outcome.output, expected);
      else assert.match(outcome.output, expected);
    });
  }
});

test('H7: a TLS server that closes after the handshake is a failure: EOF', async () => {
  await withServer(startHttpsServer((req) => req.socket.destroy()), async (server) => {
    assert.deepEqual((await probe(target(server.port, { scheme: 'HTTPS' }), {}, server)).outcome, { result: 'failure', output: `Get "https://127.0.0.1:${server.port}/": EOF` });
  });
});

test('H8: a chunked body cut short is a prober error: unexpected EOF', async () => {
  await withServer(startRawServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'))), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'failure', output: '', error: 'unexpected EOF' });
  });
});

test('H8: an 11 KiB body is truncated to exactly 10 240 bytes, which is not an error', async () => {
  await withServer(startHttpServer(reply(200, 'a'.repeat(11 * 1024))), async (server) => {
    const { outcome } = await probe(target(server.port), {}, server);
    assert.deepEqual(outcome, { result: 'success', output: 'a'.repeat(MAX_OUTPUT_BYTES) });
  });
  await withServer(startHttpServer(reply(200, 'b'.repeat(MAX_OUTPUT_BYTES - 1))), async (server) => {
    assert.equal((await probe(target(server.port), {}, server)).outcome.output.length, MAX_OUTPUT_BYTES - 1);
  });
});

test('H8: a body slower than the timeout is a prober error, not a failure', async () => {
  await withServer(
    startHttpServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial');
    }),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.deepEqual(outcome, { result: 'failure', output: '', error: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)' });
      assert.ok(elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
    },
  );
});

test('H8: the body is read before the status decides, so a 503 whose body stalls is a prober error', async () => {
  await withServer(
    startHttpServer((_req, res) => {
      res.writeHead(503);
      res.write('still writing');
    }),
    async (server) => {
      const { outcome } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.equal(outcome.error, 'context deadline exceeded (Client.Timeout or context cancellation while reading body)');
    },
  );
});

test('H8: a body cut short of its Content-Length is a prober error: unexpected EOF', async () => {
  await withServer(startRawServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this')), async (server) => {
    assert.deepEqual((await probe(target(server.port), {}, server)).outcome, { result: 'failure', output: '', error: 'unexpected EOF' });
  });
});

// --- hostile targets: bounded, and nothing left behind --------------------------------------

test('H8: an endless 200 body: 10 240 bytes are read, a success, at once and not at the deadline', async () => {
  await withServer(
    startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = `400\r\n${'z'.repeat(0x400)}\r\n`;
      const pump = (): void => {
        while (!socket.destroyed && socket.write(chunk));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    }),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.deepEqual(outcome, { result: 'success', output: 'z'.repeat(MAX_OUTPUT_BYTES) });
      assert.ok(elapsedMs < SHORT_MS, `${elapsedMs} ms`);
      assert.ok(await server.allClosed(), 'the server saw the connection closed');
    },
  );
});

test('H6: headers that never finish are a failure at the deadline', async () => {
  const timers = new Set<NodeJS.Timeout>();
  await withServer(
    startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      const timer = setInterval(() => socket.write('X-Again: and again\r\n'), 50);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    }),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      assert.ok(elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
      assert.ok(await server.allClosed(), 'the server saw the connection closed');
    },
  );
  for (const timer of timers) clearInterval(timer);
});

test('H6: a socket that accepts and never answers is a failure at the deadline', async () => {
  const received: Buffer[] = [];
  await withServer(
    startRawServer((socket) => socket.on('data', (chunk: Buffer) => received.push(chunk))),
    async (server) => {
      const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
      assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
      assert.ok(elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
      assert.ok(await server.allClosed(), 'the server saw the connection closed');
      assert.match(Buffer.concat(received).toString('latin1'), /^GET \/ HTTP\/1\.1\r\n/);
    },
  );
});

test('H7: garbage instead of HTTP is a failure: malformed HTTP response', async () => {
  await withServer(startRawServer((socket) => socket.write('SSH-2.0-OpenSSH_9.6\r\n')), async (server) => {
    const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: SHORT_MS }, server);
    assert.deepEqual(outcome, { result: 'failure', output: `Get "http://127.0.0.1:${server.port}/": net/http: HTTP/1.x transport connection broken: malformed HTTP response "SSH-2.0-OpenSSH_9.6"` });
    assert.ok(elapsedMs < SHORT_MS + SLACK_MS, `${elapsedMs} ms`);
    assert.ok(await server.allClosed(), 'the server saw the connection closed');
  });
});

test('H6: an aborted attempt ends at once, as a prober error that never counts (P5)', async () => {
  await withServer(startRawServer(() => undefined), async (server) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { outcome, elapsedMs } = await probe(target(server.port), { timeoutMs: 5000, signal: controller.signal }, server);
    assert.deepEqual(outcome, { result: 'failure', output: '', error: `Get "http://127.0.0.1:${server.port}/": context canceled` });
    assert.ok(elapsedMs < 100 + SLACK_MS, `${elapsedMs} ms`);
    assert.ok(await server.allClosed(), 'the server saw the connection closed');
    const before = await probe(target(server.port), { signal: AbortSignal.abort() });
    assert.equal(before.outcome.error, `Get "http://127.0.0.1:${server.port}/": context canceled`);
  });
});

test('H6: an abort while the body streams is a prober error too', async () => {
  await withServer(
    startHttpServer((_req, res) => {
      res.writeHead(200);
      res.write('some');
    }),
    async (server) => {
      const controller = new AbortController();
      const pending = probe(target(server.port), { timeoutMs: 5000, signal: controller.signal }, server);
      await sleep(150);
      controller.abort();
      const { outcome, elapsedMs } = await pending;
      assert.deepEqual(outcome, { result: 'failure', output: '', error: 'context canceled' });
      assert.ok(elapsedMs < 150 + SLACK_MS, `${elapsedMs} ms`);
    },
  );
});

test('H11: every attempt of a probe sends the same request (line and headers)', async () => {
  const seen: string[] = [];
  await withServer(
    startHttpServer((req, res) => {
      const headers = Object.entries(req.headers).filter(([name]) => name !== 'connection');
      seen.push(JSON.stringify([req.method, req.url, headers]));
      res.end('ok');
    }),
    async (server) => {
      const target: HttpProbeTarget = { scheme: 'HTTP', host: '127.0.0.1', port: server.port, path: '/healthz?x=1', headers: [{ name: 'X-Probe', value: 'a' }] };
      const options: HttpProbeOptions = { timeoutMs: 2000, userAgent: probeUserAgent(33) };
      for (let i = 0; i < 3; i++) assert.equal((await probeHttp(target, options)).result, 'success');
    },
  );
  assert.equal(seen.length, 3);
  assert.equal(new Set(seen).size, 1, seen.join('\n'));
});
