import { pod, podSpec } from './manifests';
import type { RuleDoc } from './types';

/** P09–P17: a probe's numbers, and the containers probes are allowed on. */
export const API_FIELD_DOCS: Readonly<Record<string, RuleDoc>> = {
  P09: {
    name: 'Negative delay, timeout, period or threshold',
    means: `\`initialDelaySeconds\`, \`timeoutSeconds\`, \`periodSeconds\`, \`successThreshold\` or \`failureThreshold\` is negative. Zero is allowed everywhere: for the last four it means the default (1 s, 10 s, 1 and 3).`,
    why: `The API server refuses the object: \`spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -5: must be greater than or equal to 0\`.`,
    bad: {
      caption: 'A negative initial delay.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          initialDelaySeconds: -5
      `),
    },
    good: {
      caption: 'Zero or more.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          initialDelaySeconds: 5
      `),
    },
  },

  P10: {
    name: 'Probe grace period of 0 or less',
    means: `A probe's own \`terminationGracePeriodSeconds\` is 0 or negative. Unlike the probe's other numbers, 0 does not mean "the default" here: to use the pod's grace period, leave the field out.`,
    why: `The API server refuses the object: \`spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0\`.`,
    bad: {
      caption: 'Zero, meant as "kill at once".',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          terminationGracePeriodSeconds: 0
      `),
    },
    good: {
      caption: 'At least one second (or no field: the pod\u2019s grace period, 30 s by default).',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          terminationGracePeriodSeconds: 5
      `),
    },
  },

  P11: {
    name: 'Grace period on a readiness probe',
    means: `A readiness probe sets \`terminationGracePeriodSeconds\`, whatever its value.`,
    why: `A failing readiness probe never kills the container, so a grace period for such a kill means nothing. The API server refuses the object: \`spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes\`.`,
    bad: {
      caption: 'A grace period on readiness.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          terminationGracePeriodSeconds: 10
      `),
    },
    good: {
      caption: 'Without it. (Liveness and startup probes may set one.)',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  P12: {
    name: 'Liveness successThreshold is not 1',
    means: `A liveness probe's \`successThreshold\` is something other than 1 (0 is fine: it means 1). A quick fix sets it to 1.`,
    why: `Liveness only ever acts on failures — one success is enough to call a container alive — so Kubernetes does not accept any other value: \`spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1\`. To ride out short hiccups, raise \`failureThreshold\` instead.`,
    bad: {
      caption: 'Two successes asked for.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          successThreshold: 2
      `),
    },
    good: {
      caption: 'Left out (1).',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  P13: {
    name: 'Startup successThreshold is not 1',
    means: `A startup probe's \`successThreshold\` is something other than 1 (0 is fine: it means 1). A quick fix sets it to 1.`,
    why: `The first success of a startup probe marks the container as started and hands over to liveness and readiness; Kubernetes does not accept any other value: \`spec.containers[0].startupProbe.successThreshold: Invalid value: 3: must be 1\`.`,
    bad: {
      caption: 'Three successes asked for.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureThreshold: 30
          successThreshold: 3
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
    good: {
      caption: 'Left out (1).',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureThreshold: 30
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  P14: {
    name: 'Probe on an init container',
    means: `A probe on an init container that is not a sidecar, i.e. has no \`restartPolicy: Always\`. Such a container runs to completion before the app starts; there is nothing to probe. (L24 suggests making it a sidecar when that is what you meant.)`,
    why: `The API server refuses the object, once per probe, without looking inside it: \`spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always\`.`,
    bad: {
      caption: 'A liveness probe on a plain init container.',
      alsoTriggers: ['L24'],
      yaml: podSpec(`
        initContainers:
          - name: migrate
            image: example/migrate:1.0
            livenessProbe:
              exec:
                command: ["cat", "/tmp/alive"]
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
    good: {
      caption: 'No probe: the init container\u2019s exit code is its result.',
      yaml: podSpec(`
        initContainers:
          - name: migrate
            image: example/migrate:1.0
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
  },

  P16: {
    name: 'Probe on an ephemeral container',
    means: `A probe on an ephemeral container (the debugging containers \`kubectl debug\` adds to a running pod).`,
    why: `Ephemeral containers are never probed, and the API server refuses the probe, once per probe, without looking inside it: \`spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container\`. An ephemeral container in a manifest is refused anyway (P17).`,
    bad: {
      caption: 'An ephemeral container with a probe.',
      alsoTriggers: ['P17'],
      yaml: podSpec(`
        containers:
          - name: web
            image: example/web:1.0
        ephemeralContainers:
          - name: debugger
            image: busybox:1.36
            readinessProbe:
              exec:
                command: ["true"]
      `),
    },
    good: {
      caption: 'The pod alone; debug it later with `kubectl debug -it web --image=busybox:1.36 --target=web`.',
      yaml: podSpec(`
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
  },

  P17: {
    name: 'Ephemeral containers in a manifest',
    means: `\`ephemeralContainers\` written in a Pod or in a workload's pod template. Ephemeral containers are only ever added to a running pod, with \`kubectl debug\`.`,
    why: `The API server refuses the object: for a Pod, \`spec.ephemeralContainers: Forbidden: cannot be set on create\`; in a template, \`spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template\`.`,
    bad: {
      caption: 'A debugging container written into the Pod.',
      yaml: podSpec(`
        containers:
          - name: web
            image: example/web:1.0
        ephemeralContainers:
          - name: debugger
            image: busybox:1.36
      `),
    },
    good: {
      caption: 'The pod alone; add the debugger when needed: `kubectl debug -it web --image=busybox:1.36 --target=web`.',
      yaml: podSpec(`
        containers:
          - name: web
            image: example/web:1.0
      `),
    },
  },
};
