import { manifest, pod, podSpec } from './manifests';
import type { RuleDoc } from './types';

/** L17, L30, L29, L18, L22, L24, L26: probes in their workload, container and Kubernetes version. */
export const WORKLOAD_DOCS: Readonly<Record<string, RuleDoc>> = {
  L17: {
    name: 'Readiness probe on a Job',
    means: `A container of a Job or CronJob has a readiness probe, and no Service among the manifests checked with it selects its pods. (In the editor, Services in the other open manifests count; on the command line, those in the files checked together.)`,
    why: `Readiness decides one thing: whether a Service sends the pod traffic. Nothing waits for a Job's pods to be Ready — the Job completes when its containers exit — so without a Service the probe decides nothing and only costs an attempt every \`periodSeconds\`.`,
    bad: {
      caption: 'A batch Job with a readiness probe.',
      yaml: manifest(`
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: report
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              containers:
                - name: report
                  image: example/report:1.0
                  readinessProbe:
                    exec:
                      command: ["cat", "/tmp/ready"]
      `),
    },
    good: {
      caption: 'No readiness probe.',
      yaml: manifest(`
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: report
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              containers:
                - name: report
                  image: example/report:1.0
      `),
    },
  },

  L30: {
    name: 'Service traffic without a readinessProbe',
    means: `A Service among the manifests checked selects the pod and sends traffic to this container — its \`targetPort\` names one of the container's ports, or is the number of one — and the container has no readiness probe. (In a chart or an overlay, the Services of the same release or build count; in the editor, also those in the other open manifests.)`,
    why: `Without a readiness probe the kubelet reports the container Ready the moment it has started (after its startup probe, if it has one) and keeps it Ready whatever happens next. The Service adds the pod to its endpoints at once, so the first requests arrive before the app listens, and a container that stops answering keeps receiving traffic until liveness restarts it. A readiness probe on the port the Service reaches holds traffic back until the app answers, and takes the pod out of rotation while it cannot.`,
    bad: {
      caption: 'A Service sends port 8080 to a container that has no readiness probe.',
      yaml: manifest(`
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          selector:
            matchLabels:
              app: web
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
                - name: web
                  image: example/web:1.0
                  ports:
                    - name: http
                      containerPort: 8080
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: web
        spec:
          selector:
            app: web
          ports:
            - port: 80
              targetPort: http
      `),
    },
    good: {
      caption: 'A readiness probe on the port the Service reaches.',
      yaml: manifest(`
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          selector:
            matchLabels:
              app: web
          template:
            metadata:
              labels:
                app: web
            spec:
              containers:
                - name: web
                  image: example/web:1.0
                  ports:
                    - name: http
                      containerPort: 8080
                  readinessProbe:
                    httpGet:
                      path: /ready
                      port: http
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: web
        spec:
          selector:
            app: web
          ports:
            - port: 80
              targetPort: http
      `),
    },
  },

  L29: {
    name: 'Liveness with restartPolicy: Never',
    means: `A liveness probe in a pod whose \`restartPolicy\` is \`Never\` (common in Jobs).`,
    why: `When liveness fails, the kubelet kills the container — and with \`restartPolicy: Never\` it does not start it again. The pod fails for good; a Job then creates a new pod only while its \`backoffLimit\` allows. With \`restartPolicy: OnFailure\` the kubelet restarts the container in the same pod instead.`,
    bad: {
      caption: 'A Job whose pods are never restarted, with a liveness probe.',
      yaml: manifest(`
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: import
        spec:
          template:
            spec:
              restartPolicy: Never
              containers:
                - name: import
                  image: example/import:1.0
                  livenessProbe:
                    exec:
                      command: ["cat", "/tmp/alive"]
      `),
    },
    good: {
      caption: '`restartPolicy: OnFailure`: a hung container is restarted in place.',
      yaml: manifest(`
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: import
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              containers:
                - name: import
                  image: example/import:1.0
                  livenessProbe:
                    exec:
                      command: ["cat", "/tmp/alive"]
      `),
    },
  },

  L18: {
    name: 'Sidecar probes hold the pod back',
    means: `A sidecar (an init container with \`restartPolicy: Always\`) has a startup or readiness probe. This is a note on what they do, not a mistake.`,
    why: `The kubelet starts init containers one at a time: a sidecar with a startup probe holds back every init container after it and all the app's containers until that probe succeeds (or gives up and restarts the sidecar). A sidecar's readiness counts towards the pod's: while it fails, the whole pod is out of its Services' endpoints, however healthy the app is. Keep these probes only when the app really needs the sidecar first.`,
    bad: {
      caption: 'The app waits for the proxy sidecar\u2019s startup probe.',
      yaml: podSpec(`
        initContainers:
          - name: proxy
            image: example/proxy:1.0
            restartPolicy: Always
            startupProbe:
              tcpSocket:
                port: 15000
              periodSeconds: 2
              failureThreshold: 30
            livenessProbe:
              tcpSocket:
                port: 15000
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
    good: {
      caption: 'Without the startup probe: the app starts without waiting for the sidecar.',
      yaml: podSpec(`
        initContainers:
          - name: proxy
            image: example/proxy:1.0
            restartPolicy: Always
            livenessProbe:
              tcpSocket:
                port: 15000
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
  },

  L22: {
    name: 'Probe key with no value',
    means: `A probe key with nothing under it, such as \`livenessProbe:\` followed by a line at the same indentation, or \`livenessProbe: null\`. Often the probe's body was deleted, or indented wrongly.`,
    why: `The API server accepts it as "no probe at all", without a word: the container runs without the probe you thought you had.`,
    bad: {
      caption: '`livenessProbe:` with no value.',
      yaml: pod(`
        livenessProbe:
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
    good: {
      caption: 'The probe filled in (or the key removed).',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  L24: {
    name: 'Init container that should be a sidecar?',
    means: `An init container without \`restartPolicy: Always\` has probes. If it is meant to keep running beside the app (a proxy, a log shipper), it should be a sidecar.`,
    why: `A plain init container runs to completion before the app starts, and the API server refuses probes on it (P14). Adding \`restartPolicy: Always\` makes it a sidecar (Kubernetes 1.29 and later): it starts before the app, keeps running beside it, and its probes are allowed.`,
    bad: {
      caption: 'A log shipper as a plain init container: it never lets the app start.',
      alsoTriggers: ['P14'],
      yaml: podSpec(`
        initContainers:
          - name: log-shipper
            image: example/log-shipper:1.0
            livenessProbe:
              httpGet:
                path: /healthz
                port: 2020
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
    good: {
      caption: 'A sidecar.',
      yaml: podSpec(`
        initContainers:
          - name: log-shipper
            image: example/log-shipper:1.0
            restartPolicy: Always
            livenessProbe:
              httpGet:
                path: /healthz
                port: 2020
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
  },

  L26: {
    name: 'Not available in the targeted Kubernetes version',
    means: `A field that is off by default, or alpha behind a feature gate, in the Kubernetes version you target (the \`probeLens.kubernetesVersion\` setting, \`--kubernetes-version\`; 1.33 unless you say otherwise):

- \`grpc\` probes before 1.24;
- a probe's own \`terminationGracePeriodSeconds\` before 1.25;
- sidecars (\`restartPolicy: Always\` on an init container) before 1.29;
- \`grpc.mode\` and \`httpGet.protocol\`, alpha in 1.37.`,
    why: `On a cluster where the feature is off, the API server drops the field. A \`grpc\` probe then has no handler and is refused; a dropped grace period silently falls back to the pod's; an init container without its \`restartPolicy\` is a plain one, whose probes are refused (P14) and which blocks the app until it exits.`,
    bad: {
      caption: 'A gRPC probe, for a 1.23 cluster.',
      settings: { kubernetesVersion: '1.23' },
      yaml: pod(`
        ports:
          - containerPort: 9090
        livenessProbe:
          grpc:
            port: 9090
      `),
    },
    good: {
      caption: 'Before 1.24, the usual way: the `grpc_health_probe` program in the image. (From 1.24 on, the `grpc` probe is fine.)',
      settings: { kubernetesVersion: '1.23' },
      yaml: pod(`
        ports:
          - containerPort: 9090
        livenessProbe:
          exec:
            command: ["grpc_health_probe", "-addr=:9090"]
      `),
    },
  },
};
