/**
 * Deterministic generator of realistic Kubernetes manifests for the benchmarks: Deployments with
 * 2–4 containers, each with all three probes (handlers of every type), env, ports and resources,
 * as one multi-document file. The same seed and size always give the same text, so runs compare.
 */

export interface GeneratedManifest {
  readonly text: string;
  readonly lines: number;
  readonly documents: number;
  readonly containers: number;
  readonly probes: number;
}

/** mulberry32: small, fast, good enough to vary a manifest, and the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const APPS = ['checkout', 'payments', 'catalog', 'search', 'cart', 'auth', 'orders', 'inventory', 'shipping', 'reviews'];
const IMAGES = ['nginx:1.27', 'ghcr.io/acme/api:2.14.1', 'registry.k8s.io/pause:3.9', 'envoyproxy/envoy:v1.31.0', 'redis:7.2-alpine', 'busybox:1.36'];
const PATHS = ['/healthz', '/readyz', '/livez', '/health/ready', '/actuator/health/liveness', '/status'];

/** Generates Deployments until the text has at least `targetLines` lines. */
export function generateManifest(targetLines: number, seed = 42): GeneratedManifest {
  const random = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  const out: string[] = [];
  let documents = 0;
  let containers = 0;
  let probes = 0;

  const probe = (field: string, ports: { name: string; port: number }[], indent: string) => {
    probes++;
    const port = pick(ports);
    const usePortName = random() < 0.5;
    out.push(`${indent}${field}:`);
    const inner = `${indent}  `;
    switch (int(0, 3)) {
      case 0:
        out.push(`${inner}httpGet:`, `${inner}  path: ${pick(PATHS)}`, `${inner}  port: ${usePortName ? port.name : port.port}`);
        if (random() < 0.4) out.push(`${inner}  scheme: HTTPS`);
        if (random() < 0.5) out.push(`${inner}  httpHeaders:`, `${inner}    - name: X-Probe`, `${inner}      value: kubelet`);
        break;
      case 1:
        out.push(`${inner}tcpSocket:`, `${inner}  port: ${usePortName ? port.name : port.port}`);
        break;
      case 2:
        out.push(`${inner}exec:`, `${inner}  command:`, `${inner}    - sh`, `${inner}    - -c`, `${inner}    - test -f /tmp/healthy && curl -fsS localhost:${port.port}/healthz`);
        break;
      default:
        out.push(`${inner}grpc:`, `${inner}  port: ${port.port}`);
        if (random() < 0.5) out.push(`${inner}  service: ${pick(APPS)}.v1.Health`);
    }
    if (field === 'startupProbe') {
      out.push(`${inner}periodSeconds: ${int(2, 10)}`, `${inner}failureThreshold: ${int(10, 60)}`);
    } else {
      out.push(`${inner}initialDelaySeconds: ${int(0, 15)}`, `${inner}periodSeconds: ${int(5, 30)}`, `${inner}timeoutSeconds: ${int(1, 5)}`);
      out.push(`${inner}failureThreshold: ${int(2, 6)}`);
      if (field === 'readinessProbe') out.push(`${inner}successThreshold: ${int(1, 3)}`);
    }
  };

  const container = (app: string, index: number) => {
    containers++;
    const name = index === 0 ? app : `${app}-sidecar-${index}`;
    const base = 8000 + index * 100 + int(0, 99);
    const ports = [{ name: 'http', port: base }];
    if (random() < 0.6) ports.push({ name: 'metrics', port: base + 1 });
    if (random() < 0.3) ports.push({ name: 'grpc', port: base + 2 });
    out.push(`        - name: ${name}`, `          image: ${pick(IMAGES)}`, `          imagePullPolicy: IfNotPresent`);
    if (random() < 0.3) out.push(`          args: ["--port=${base}", "--log-level=info"]`);
    out.push(`          ports:`);
    for (const p of ports) out.push(`            - name: ${p.name}`, `              containerPort: ${p.port}`, `              protocol: TCP`);
    out.push(`          env:`);
    const envCount = int(3, 7);
    for (let e = 0; e < envCount; e++) {
      if (random() < 0.25) {
        out.push(`            - name: POD_${['NAME', 'IP', 'NAMESPACE'][e % 3]}`, `              valueFrom:`, `                fieldRef:`, `                  fieldPath: ${['metadata.name', 'status.podIP', 'metadata.namespace'][e % 3]}`);
      } else {
        out.push(`            - name: ${app.toUpperCase()}_SETTING_${e}`, `              value: "${pick(['true', 'false', '30s', 'info', String(int(1, 9999))])}"`);
      }
    }
    out.push(
      `          resources:`,
      `            requests:`,
      `              cpu: ${int(50, 500)}m`,
      `              memory: ${int(64, 512)}Mi`,
      `            limits:`,
      `              cpu: "${int(1, 4)}"`,
      `              memory: ${int(512, 2048)}Mi`,
    );
    probe('startupProbe', ports, '          ');
    probe('readinessProbe', ports, '          ');
    probe('livenessProbe', ports, '          ');
  };

  const deployment = (n: number) => {
    documents++;
    const app = `${pick(APPS)}-${n}`;
    if (n > 0) out.push('---');
    out.push(
      `# ${app}: generated by bench/generate.ts`,
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${app}`,
      '  namespace: shop',
      '  labels:',
      `    app.kubernetes.io/name: ${app}`,
      '    app.kubernetes.io/part-of: shop',
      'spec:',
      `  replicas: ${int(1, 6)}`,
      '  selector:',
      '    matchLabels:',
      `      app.kubernetes.io/name: ${app}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app.kubernetes.io/name: ${app}`,
      '    spec:',
      `      terminationGracePeriodSeconds: ${pick([30, 45, 60])}`,
      '      containers:',
    );
    const count = int(2, 4);
    for (let c = 0; c < count; c++) container(app, c);
  };

  for (let n = 0; out.length < targetLines; n++) deployment(n);
  return { text: `${out.join('\n')}\n`, lines: out.length, documents, containers, probes };
}
