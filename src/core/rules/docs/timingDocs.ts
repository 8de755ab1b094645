import { pod } from './manifests';
import type { RuleDoc } from './types';

/** L10–L16, L27, L28: when probes act, from their numbers. */
export const TIMING_DOCS: Readonly<Record<string, RuleDoc>> = {
  L10: {
    name: 'Liveness kills before the app is up',
    means: `There is no startup probe, and the liveness probe can kill the container sooner than the app can start: \`initialDelaySeconds + failureThreshold × periodSeconds\` (30 s with the defaults) is less than the readiness probe's \`initialDelaySeconds\` — your own estimate of the start-up time. If you tell Probe Lens how long the app takes to start (the \`probeLens.expectedStartupSeconds\` setting, \`--expected-startup 90s\`), it also warns when liveness can kill the container before then.`,
    why: `Liveness starts counting at \`initialDelaySeconds\` after the container starts. An app that does not answer yet fails every attempt, and after \`failureThreshold\` failures in a row the kubelet kills and restarts it — before it ever finishes starting. Every restart starts over, with growing waits between them: the pod ends in \`CrashLoopBackOff\` and never becomes Ready.

A startup probe fixes this: until it succeeds, liveness and readiness do not run, and it can allow a long start (\`failureThreshold × periodSeconds\`) without making liveness slow to notice a hang later.`,
    bad: {
      caption: 'Liveness kills after 30 s (defaults); the app needs about 60 s.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          initialDelaySeconds: 60
      `),
    },
    good: {
      caption: 'A startup probe allows up to 300 s (30 × 10 s) to start; liveness and readiness wait for it.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
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

  L11: {
    name: 'Startup probe gives no extra time',
    means: `The startup probe's budget, \`initialDelaySeconds + failureThreshold × periodSeconds\`, is no longer than the time liveness alone would allow (so the startup probe adds nothing), or is under 10 s.`,
    why: `A startup probe that fails \`failureThreshold\` times in a row makes the kubelet kill and restart the container, exactly as liveness would. Its purpose is to give a slow start more time than liveness gives a running app; with a budget no larger than liveness's, a slow start is killed just as early. Under 10 s, even a normal start on a busy node can be cut short, and the container restarts in a loop.`,
    bad: {
      caption: 'Startup allows 30 s (3 × 10 s), the same as liveness with its defaults.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 3
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
    good: {
      caption: 'Startup allows 300 s (30 × 10 s), enough for the slowest start.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  L12: {
    name: 'Timeout longer than the period',
    means: `A probe's \`timeoutSeconds\` is greater than its \`periodSeconds\`.`,
    why: `The kubelet starts an attempt every \`periodSeconds\`, and each attempt may run for \`timeoutSeconds\`. Ticks missed while an attempt hangs collapse into one, so the next attempt starts as soon as the slow one times out. When the app hangs, attempts therefore come every \`timeoutSeconds\`, and \`failureThreshold\` failures take about \`failureThreshold × timeoutSeconds\` — longer than the \`failureThreshold × periodSeconds\` you planned for. Here, the pod is taken out of its Services after about 30 s instead of 15 s.`,
    bad: {
      caption: 'Attempts may hang for 10 s, every 5 s.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          periodSeconds: 5
          timeoutSeconds: 10
          failureThreshold: 3
      `),
    },
    good: {
      caption: 'A timeout shorter than the period.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          periodSeconds: 5
          timeoutSeconds: 2
          failureThreshold: 3
      `),
    },
  },

  L13: {
    name: 'Liveness gives up before readiness',
    means: `Liveness and readiness probe the same endpoint, and liveness gives up after no more failing time (\`failureThreshold × periodSeconds\`) than readiness does.`,
    why: `When the app is overloaded and answers slowly, a failing readiness probe takes the pod out of its Services' endpoints: traffic goes to other pods, and this one can catch up. A failing liveness probe restarts the container, dropping the work in flight and making the other pods busier still. If liveness gives up first (or at the same time), an overloaded pod is restarted while it is still being sent traffic. Probe the same cheap endpoint, but give liveness a higher \`failureThreshold\`.`,
    bad: {
      caption: 'Liveness restarts after 10 s of failures, readiness takes the pod out after 15 s.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 5
          failureThreshold: 2
        readinessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 5
          failureThreshold: 3
      `),
    },
    good: {
      caption: 'Liveness waits 30 s: the pod is out of rotation long before it is restarted.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 5
          failureThreshold: 6
        readinessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 5
          failureThreshold: 3
      `),
    },
  },

  L27: {
    name: 'Liveness failureThreshold of 1',
    means: `A liveness probe with \`failureThreshold: 1\`.`,
    why: `The kubelet restarts the container after \`failureThreshold\` failures in a row. With 1, a single slow answer — a garbage-collection pause, a moment of load longer than \`timeoutSeconds\` — restarts it. Three (the default) or more rides out such a hiccup and still notices a real hang within seconds.`,
    bad: {
      caption: 'One failure restarts the container.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureThreshold: 1
      `),
    },
    good: {
      caption: 'Three in a row (the default).',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureThreshold: 3
      `),
    },
  },

  L14: {
    name: 'Liveness identical to readiness',
    means: `The liveness and readiness probes are the same: same endpoint (after resolving named ports), same headers, same timings.`,
    why: `The moment the app is too busy to answer, both fail together: the pod is taken out of its Services and restarted at the same moment. Load turns into restarts, which make the remaining pods busier — the way one slow dependency can restart a whole Deployment. Keep the endpoint, but make liveness more tolerant, with a higher \`failureThreshold\`.`,
    bad: {
      caption: 'The same probe twice.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 3
        readinessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 3
      `),
    },
    good: {
      caption: 'Liveness gives up only after 60 s of failures.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 6
        readinessProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 3
      `),
    },
  },

  L15: {
    name: 'Startup probe without liveness',
    means: `A container with a startup probe and no liveness probe. This may be on purpose; it is often a liveness probe left out by mistake.`,
    why: `The startup probe only runs until it first succeeds. A container that does not start in time is killed and restarted, but once it has started, nothing checks it again: if the app later hangs (a deadlock, an exhausted pool), the kubelet never restarts it. A readiness probe would only take it out of its Services.`,
    bad: {
      caption: 'Checked while starting, never after.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
      `),
    },
    good: {
      caption: 'A liveness probe takes over once the app has started.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  L28: {
    name: 'Liveness delay next to a startup probe',
    means: `A liveness probe with an \`initialDelaySeconds\` of 10 s or more, in a container that has a startup probe.`,
    why: `Liveness does not run until the startup probe has succeeded, so it needs no delay to let the app start. And the delay counts from when the container started, not from when the startup probe succeeded: by then it has usually run out already, and when it has not, it only postpones the first check of a running app.`,
    bad: {
      caption: 'A 60 s liveness delay behind a startup probe.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          initialDelaySeconds: 60
      `),
    },
    good: {
      caption: 'No delay: the startup probe already covers the start.',
      yaml: pod(`
        startupProbe:
          httpGet:
            path: /healthz
            port: 8080
          periodSeconds: 10
          failureThreshold: 30
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  L16: {
    name: 'Probe grace period longer than the pod\u2019s',
    means: `A liveness or startup probe sets its own \`terminationGracePeriodSeconds\`, longer than the pod's (30 s when not set).`,
    why: `When a liveness or startup probe fails, the kubelet stops the container with SIGTERM and waits the probe's grace period, if it has one, otherwise the pod's, before SIGKILL. The usual pattern is the other way round: a long pod grace period so that a normal shutdown can drain its work, and a short one on liveness, since a container that stopped answering is unlikely to shut down cleanly. A probe value above the pod's waits longer on a hung container than on a healthy one.`,
    bad: {
      caption: 'Liveness waits 120 s before SIGKILL, a normal shutdown only 30 s.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          terminationGracePeriodSeconds: 120
      `),
    },
    good: {
      caption: '120 s to drain on a normal shutdown, 10 s for a hung container.',
      yaml: pod(
        `
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          terminationGracePeriodSeconds: 10
      `,
        'terminationGracePeriodSeconds: 120',
      ),
    },
  },
};
