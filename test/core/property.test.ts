/**
 * Property tests (issue: "feeding random and mutated manifests proves the parser and rules never
 * throw"): arbitrary text, structured manifests with random values in every pod-spec and probe
 * position, and mutations of valid manifests. Besides "never throws", every finding must be
 * well-formed (registered rule, severity, a range inside the text) and no rule may have thrown
 * behind the runner's back ("internal error in rule …").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { checkText } from '../../src/core/check';
import type { ManifestLimits } from '../../src/core/manifest';
import { RULE_INFO } from '../../src/core/rules/registry';
import type { Finding } from '../../src/core/rules/types';
import { assertFindingsWellFormed, assertLimitHidesTheRest } from '../helpers/invariants';

/**
 * A fixed seed, so a failure reproduces. To explore further: FC_SEED=<n> picks another seed and
 * FC_RUNS_SCALE=<k> multiplies every numRuns (the defaults keep this file under ~15 s on 2 cores).
 */
const SEED = Number(process.env.FC_SEED ?? 20_241_122);
const SCALE = Number(process.env.FC_RUNS_SCALE ?? 1);
const params = (numRuns: number): fc.Parameters<unknown> => ({ seed: SEED, numRuns: Math.max(1, Math.round(numRuns * SCALE)) });

function checkedWellFormed(text: string, options: { limits?: ManifestLimits; disabledRules?: ReadonlySet<string> } = {}): Finding[] {
  const findings = checkText(text, { file: 'test.yaml', ...options });
  assertFindingsWellFormed(text, findings);
  assertLimitHidesTheRest(findings);
  return findings;
}

// ---------------------------------------------------------------------------------------------
// (a) arbitrary text

/** Characters that mean something to YAML, so random text reaches the interesting paths. */
const YAML_CHARS = ['-', ':', ' ', '  ', '\n', '\t', '[', ']', '{', '}', ',', '&a', '*a', '!', '!!str', '|', '>', "'", '"', '#', '?', '%', '@', '`', '<<', '---', '...', '{{', '}}', '\r\n', '\0', 'kind', 'Pod', 'spec', 'containers', 'livenessProbe', 'port', '8080', 'a', 'yes', '~', '0x1F', '1e3', '.inf'];
const yamlishText = fc.array(fc.constantFrom(...YAML_CHARS), { maxLength: 200 }).map((parts) => parts.join(''));

describe('property: arbitrary text never throws', () => {
  test('ASCII-ish strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        checkedWellFormed(text);
      }),
      params(800),
    );
  });

  test('arbitrary unicode, lone surrogates and control characters included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        checkedWellFormed(text);
      }),
      params(500),
    );
  });

  test('strings of YAML syntax characters and keywords', () => {
    fc.assert(
      fc.property(yamlishText, (text) => {
        checkedWellFormed(text);
      }),
      params(2000),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// (b) structured manifests: random values in pod-spec and probe positions

const KINDS = ['Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'PodTemplate', 'List', 'PodList', 'Service', 'ConfigMap'] as const;

/** Any JSON-ish value: what a field holds when the author got its type wrong. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { maxDepth: 2 },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.integer({ min: -3, max: 70_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(0, 1, -1, 2_147_483_647, 2_147_483_648, -2_147_483_649, 1e21, 0.5, 5.0, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'http', 'grpc', '8080', '0x1F', 'yes', 'no', '1.5', '-1', 'HTTP', 'HTTPS', 'ftp', '$(PORT)', 'sh -c', '/healthz', 'Always', 'OnFailure', 'Never'),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), { maxKeys: 3 }),
);

/** Mostly the right type, sometimes anything. */
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: junk });
const port = maybe(fc.oneof(fc.integer({ min: -2, max: 70_000 }), fc.constantFrom('http', 'metrics', 'grpc', 'HTTP', '8080', 'a-very-long-port-name', '')));
const smallInt = maybe(fc.integer({ min: -5, max: 400 }));
const str = (...values: string[]) => maybe(fc.constantFrom(...values));

const execHandler = fc.record({ command: maybe(fc.array(fc.constantFrom('sh', '-c', 'curl -f localhost:8080', '$(PORT)', 'cat /tmp/ok', '', 'grpc_health_probe'), { maxLength: 4 })) }, { requiredKeys: [] });
const httpGetHandler = fc.record(
  {
    path: str('/healthz', '', 'healthz', '/a b', '/ready?x=1'),
    port,
    host: str('localhost', '10.0.0.1', '', 'example.com'),
    scheme: str('HTTP', 'HTTPS', 'http', 'ftp'),
    httpHeaders: maybe(fc.array(fc.record({ name: str('X-A', 'Host', '', 'bad name'), value: str('v', '') }, { requiredKeys: [] }), { maxLength: 3 })),
  },
  { requiredKeys: [] },
);
const tcpHandler = fc.record({ port, host: str('localhost', '') }, { requiredKeys: [] });
const grpcHandler = fc.record({ port, service: str('', 'liveness', 'grpc.health.v1.Health') }, { requiredKeys: [] });

const probe = maybe(
  fc.record(
    {
      exec: maybe(execHandler),
      httpGet: maybe(httpGetHandler),
      tcpSocket: maybe(tcpHandler),
      grpc: maybe(grpcHandler),
      initialDelaySeconds: smallInt,
      timeoutSeconds: smallInt,
      periodSeconds: smallInt,
      successThreshold: smallInt,
      failureThreshold: smallInt,
      terminationGracePeriodSeconds: smallInt,
      failureTreshold: smallInt, // a typo: D01
    },
    { requiredKeys: [] },
  ),
);

const container = maybe(
  fc.record(
    {
      name: str('web', 'sidecar', '', 'Web_1'),
      image: str('nginx', ''),
      command: maybe(fc.array(fc.constantFrom('sh', '-c', 'sleep 1', 'app'), { maxLength: 3 })),
      args: maybe(fc.array(fc.constantFrom('--port=$(PORT)', 'x'), { maxLength: 2 })),
      ports: maybe(
        fc.array(fc.record({ name: str('http', 'grpc', 'metrics', ''), containerPort: port, hostPort: port, protocol: str('TCP', 'UDP', 'SCTP', 'tcp') }, { requiredKeys: [] }), {
          maxLength: 3,
        }),
      ),
      env: maybe(fc.array(fc.record({ name: str('PORT', 'A', ''), value: str('8080', 'x', ''), valueFrom: junk }, { requiredKeys: [] }), { maxLength: 3 })),
      restartPolicy: str('Always', 'Never', 'OnFailure'),
      livenessProbe: probe,
      readinessProbe: probe,
      startupProbe: probe,
      resources: junk,
      lifecycle: junk,
    },
    { requiredKeys: [] },
  ),
);

const containerList = maybe(fc.array(container, { maxLength: 3 }));
const podSpec = maybe(
  fc.record(
    {
      containers: containerList,
      initContainers: containerList,
      ephemeralContainers: containerList,
      restartPolicy: str('Always', 'Never', 'OnFailure', 'Sometimes'),
      terminationGracePeriodSeconds: smallInt,
      hostNetwork: maybe(fc.boolean()),
      shareProcessNamespace: junk,
    },
    { requiredKeys: [] },
  ),
);

/** Puts the pod spec where `kind` keeps it, or somewhere else now and then. */
function objectOf(kind: string, spec: unknown, name: unknown, wrongPlace: boolean): Record<string, unknown> {
  const template = { metadata: { labels: { app: 'x' } }, spec };
  const base = { apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, metadata: { name } };
  if (wrongPlace) return { ...base, spec: { template: spec } };
  switch (kind) {
    case 'Pod':
      return { ...base, spec };
    case 'CronJob':
      return { ...base, spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } } };
    case 'PodTemplate':
      return { ...base, template };
    case 'List':
    case 'PodList':
      return { ...base, items: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec }, { kind: 'Deployment', spec: { template } }] };
    default:
      return { ...base, spec: { replicas: 1, template } };
  }
}

const manifestObject = fc
  .record({ kind: fc.oneof(fc.constantFrom(...KINDS), junk), spec: podSpec, name: maybe(fc.string({ maxLength: 8 })), wrongPlace: fc.boolean() })
  .map(({ kind, spec, name, wrongPlace }) => (typeof kind === 'string' ? objectOf(kind, spec, name, wrongPlace) : { kind, spec }));

/** `yaml` stringify in a few styles: block, flow, quoted strings, and JSON (YAML too). */
const styled = fc.record({ object: manifestObject, style: fc.constantFrom('block', 'flow', 'quoted', 'json') }).map(({ object, style }) => {
  switch (style) {
    case 'flow':
      return stringify(object, { collectionStyle: 'flow' });
    case 'quoted':
      return stringify(object, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
    case 'json':
      return `${JSON.stringify(object, null, 2)}\n`;
    default:
      return stringify(object);
  }
});
const manifestFile = fc.array(styled, { minLength: 1, maxLength: 3 }).map((docs) => docs.join('---\n'));

const RULE_IDS = [...RULE_INFO.keys()];

describe('property: structured manifests with random values never throw', () => {
  test('random pod specs and probes, in every workload kind, serialized by yaml.stringify', () => {
    fc.assert(
      fc.property(manifestFile, (text) => {
        const findings = checkedWellFormed(text);
        // `yaml` writes YAML 1.2; read as 1.1 it must still be well-formed YAML.
        const syntax = findings.filter((f) => f.rule === 'Y01' && f.severity === 'error');
        assert.deepEqual(syntax, [], 'stringify output is valid YAML');
      }),
      params(300),
    );
  });

  test('disabled rules never report, whatever the input', () => {
    fc.assert(
      fc.property(manifestFile, fc.subarray(RULE_IDS, { maxLength: 10 }), (text, disabled) => {
        const findings = checkedWellFormed(text, { disabledRules: new Set(disabled) });
        for (const f of findings) assert.ok(!disabled.includes(f.rule), `${f.rule} is disabled`);
      }),
      params(100),
    );
  });

  test('the same text always gives the same findings', () => {
    fc.assert(
      fc.property(manifestFile, (text) => {
        assert.deepEqual(checkText(text, { file: 'a.yaml' }), checkText(text, { file: 'a.yaml' }));
      }),
      params(50),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// (c) mutations of valid manifests

const VALID_MANIFESTS = [
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: 30
      initContainers:
        - name: proxy
          image: envoy
          restartPolicy: Always
          ports: [{name: admin, containerPort: 9901}]
          readinessProbe:
            httpGet: {path: /ready, port: admin}
      containers:
        - name: web
          image: nginx
          command: ["/bin/app", "--port=$(PORT)"]
          env:
            - name: PORT
              value: "8080"
          ports:
            - name: http
              containerPort: 8080
            - name: grpc
              containerPort: 9090
          startupProbe:
            httpGet:
              path: /healthz
              port: http
              httpHeaders:
                - name: X-Probe
                  value: kubelet
            failureThreshold: 30
            periodSeconds: 10
          livenessProbe: &live
            tcpSocket:
              port: 8080
            periodSeconds: 10
            timeoutSeconds: 1
          readinessProbe:
            <<: *live
            grpc:
              port: 9090
              service: ready
`,
  `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: job
              image: busybox
              livenessProbe:
                exec:
                  command: [sh, -c, "test -f /tmp/alive"]
                initialDelaySeconds: 5
                successThreshold: 1
---
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
    - name: app
      image: app:1
      ports: [{containerPort: 80}]
      readinessProbe: {httpGet: {port: 80, path: /}, periodSeconds: 5}
`,
  `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: a}
    spec:
      containers:
        - name: a
          image: a
          livenessProbe:
            grpc: {port: 50051}
  - apiVersion: v1
    kind: PodTemplate
    metadata: {name: t}
    template:
      spec:
        containers:
          - name: t
            image: t
            startupProbe:
              tcpSocket: {port: 22}
              failureThreshold: 3
`,
];

const INSERTS = ['-', ':', ' ', '  ', '\n', '\t', '[', ']', '{', '}', ',', '&x ', '*x', '*live', '<<: *live\n', '!', '!!int ', '|', '>', "'", '"', '#', '?', '---\n', '...\n', '{{ .Values.x }}', '~', '0', '-1', '1e9', 'x', '\0', '\r'];

type Mutation =
  | { op: 'deleteChars'; at: number; length: number }
  | { op: 'duplicateChars'; at: number; length: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'deleteLine'; at: number }
  | { op: 'duplicateLine'; at: number }
  | { op: 'swapLines'; at: number; with: number }
  | { op: 'indent'; at: number; by: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('deleteChars' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('duplicateChars' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ maxLength: 4 })) }),
  fc.record({ op: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swapLines' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ op: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
);

function mutate(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % (text.length + 1);
  const lines = text.split('\n');
  const line = m.at % lines.length;
  switch (m.op) {
    case 'deleteChars':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'duplicateChars':
      return text.slice(0, at + m.length) + text.slice(at);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'deleteLine':
      lines.splice(line, 1);
      return lines.join('\n');
    case 'duplicateLine':
      lines.splice(line, 0, lines[line] ?? '');
      return lines.join('\n');
    case 'swapLines': {
      const other = m.with % lines.length;
      [lines[line], lines[other]] = [lines[other] ?? '', lines[line] ?? ''];
      return lines.join('\n');
    }
    case 'indent': {
      const current = lines[line] ?? '';
      lines[line] = m.by >= 0 ? ' '.repeat(m.by) + current : current.replace(new RegExp(`^ {0,${-m.by}}`), '');
      return lines.join('\n');
    }
  }
}

const mutatedManifest = fc
  .record({ base: fc.constantFrom(...VALID_MANIFESTS), mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }) })
  .map(({ base, mutations }) => mutations.reduce(mutate, base));

/** Limits small enough that random edits hit them, to exercise the limit paths too. */
const smallLimits: fc.Arbitrary<ManifestLimits> = fc.record({
  maxFileChars: fc.integer({ min: 100, max: 5_000 }),
  maxDocuments: fc.integer({ min: 1, max: 3 }),
  maxNodeVisitsPerDocument: fc.integer({ min: 1, max: 300 }),
  maxDepth: fc.integer({ min: 0, max: 12 }),
  maxNesting: fc.integer({ min: 0, max: 20 }),
  maxNodeVisitsPerFile: fc.integer({ min: 1, max: 3000 }),
});

describe('property: mutated valid manifests never throw', () => {
  test('the valid manifests themselves give no errors from YAML', () => {
    for (const text of VALID_MANIFESTS) {
      const findings = checkedWellFormed(text);
      assert.deepEqual(
        findings.filter((f) => f.rule.startsWith('Y')),
        [],
      );
    }
  });

  test('deleted, duplicated and inserted characters and lines, re-indented and swapped lines', () => {
    fc.assert(
      fc.property(mutatedManifest, (text) => {
        checkedWellFormed(text);
      }),
      params(2500),
    );
  });

  test('mutated manifests under small limits: limits are findings, never exceptions', () => {
    fc.assert(
      fc.property(mutatedManifest, smallLimits, (text, limits) => {
        const findings = checkedWellFormed(text, { limits });
        if (text.length > limits.maxFileChars) assert.deepEqual(findings.map((f) => f.rule), ['Y02']);
      }),
      params(800),
    );
  });
});
