import { pod } from './manifests';
import type { RuleDoc } from './types';

/** D01–D02 (decoding) and P01–P08 (a probe's handler): what the API server refuses. */
export const API_HANDLER_DOCS: Readonly<Record<string, RuleDoc>> = {
  D01: {
    name: 'Unknown or misspelled field',
    means: `A field in a container or a probe that Kubernetes does not know: a typo (\`failureTreshold\`, \`initialDelaySecond\`), the wrong case (\`httpget\`, \`TimeoutSeconds\`), a field from somewhere else (\`sleep\` exists in lifecycle hooks, not in probes; \`path\` belongs to \`httpGet\`, not \`tcpSocket\`), or a field newer than the Kubernetes version you target. The message suggests the field you probably meant, and a quick fix renames it.`,
    why: `Since Kubernetes 1.27, \`kubectl apply\` asks for strict field validation by default, and the API server refuses the whole object: \`strict decoding error: unknown field "spec.containers[0].livenessProbe.failureTreshold"\`.

With \`--validate=warn\` or \`--validate=false\`, or through a tool that does not ask for strict validation, the field is dropped instead — with a warning, or silently — and the probe runs with the default you meant to change (here, 3 failures instead of 5). A probe whose only handler was misspelled is then left with no handler at all (see P01).`,
    bad: {
      caption: '`failureTreshold` is missing an "h".',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureTreshold: 5
      `),
    },
    good: {
      caption: 'Spelled `failureThreshold`.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          failureThreshold: 5
      `),
    },
  },

  D02: {
    name: 'Value of the wrong type',
    means: `A value that cannot be read as the field's type: a quoted number where an integer belongs (\`timeoutSeconds: "5"\`), a list where a string belongs, a number too large for a 32-bit integer, or a name as a gRPC port (\`grpc.port\` takes only a number; see L05).`,
    why: `The API server cannot even decode the object and refuses it before any validation, whatever the field validation mode: \`json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.timeoutSeconds of type int32\`. Unlike an unknown field, nothing makes it pass with a warning.`,
    bad: {
      caption: 'The timeout is quoted, so it is a string.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          timeoutSeconds: "5"
      `),
    },
    good: {
      caption: 'A number, unquoted.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          timeoutSeconds: 5
      `),
    },
  },

  P01: {
    name: 'Probe without a handler',
    means: `The probe says how often to probe but not how: it has none of \`exec\`, \`httpGet\`, \`tcpSocket\` or \`grpc\`. This also happens when the handler key is there with no value under it (\`httpGet:\` followed by nothing, or \`null\`).`,
    why: `The API server refuses the object: \`spec.containers[0].readinessProbe: Required value: must specify a handler type\`.`,
    bad: {
      caption: 'Only timings, no handler.',
      yaml: pod(`
        readinessProbe:
          periodSeconds: 5
          failureThreshold: 3
      `),
    },
    good: {
      caption: 'An `httpGet` handler says what to probe.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
          periodSeconds: 5
          failureThreshold: 3
      `),
    },
  },

  P02: {
    name: 'More than one handler',
    means: `The probe has two or more of \`exec\`, \`httpGet\`, \`tcpSocket\` and \`grpc\`. A probe does exactly one thing; to check two endpoints, use two probes (readiness and liveness) or one endpoint that checks both.`,
    why: `The API server refuses the object, reporting each handler after the first, in the order exec, httpGet, tcpSocket, grpc: \`spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type\`. It validates only the first handler, so fixing this can bring errors in the one you keep to light.`,
    bad: {
      caption: 'Both `httpGet` and `tcpSocket`.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
          tcpSocket:
            port: 8080
      `),
    },
    good: {
      caption: 'One handler.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  P03: {
    name: 'exec probe without a command',
    means: `An \`exec\` probe whose \`command\` is missing or an empty list.`,
    why: `The API server refuses the object: \`spec.containers[0].livenessProbe.exec.command: Required value\`.`,
    bad: {
      caption: 'An empty command.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: []
      `),
    },
    good: {
      caption: 'The program to run, and its arguments, one per list item.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["cat", "/tmp/healthy"]
      `),
    },
  },

  P04: {
    name: 'Empty httpGet path',
    onlyWithoutDefaulting: true,
    means: `An \`httpGet\` probe whose \`path\` is empty. **Probe Lens never reports this for a manifest**: the API server fills in an empty or missing \`path\` with \`/\` before it validates, so writing \`path: ""\` is the same as writing \`path: /\`. The rule exists because the API server's validation has it, for tools that validate probes without that defaulting.`,
    why: `Through the API server, nothing happens: the probe asks for \`/\`. Only a caller that skips defaulting sees \`spec.containers[0].readinessProbe.httpGet.path: Required value\`.`,
    bad: {
      caption: 'An empty path — reported only where the API server\u2019s defaulting is skipped; through the API it becomes `/`.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: ""
            port: 8080
      `),
    },
    good: {
      caption: 'The path the app answers on.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  P05: {
    name: 'Port number out of range',
    means: `A probe port given as a number outside 1–65535. A missing \`port\` counts as 0: \`httpGet\` and \`tcpSocket\` have no default port, and \`grpc.port\` is always a number.`,
    why: `The API server refuses the object: \`spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive\`.`,
    bad: {
      caption: 'No port: it is read as 0.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
      `),
    },
    good: {
      caption: 'The port the app listens on.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  P06: {
    name: 'Port name is not valid',
    means: `A probe port written as a string must be the name of a port: at most 15 characters, only lower-case letters, digits and \`-\`, at least one letter, no \`--\`, and no \`-\` at either end. Each broken condition is its own finding.

The most common cause is a quoted number, \`port: "8080"\`: quoted, it is a string, so Kubernetes takes it for a name, and a name needs a letter (L04 offers to unquote it).`,
    why: `The API server refuses the object: \`spec.containers[0].readinessProbe.httpGet.port: Invalid value: "http_metrics": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)\`.`,
    bad: {
      caption: 'An underscore in the port name.',
      yaml: pod(`
        ports:
          - name: http-metrics
            containerPort: 9090
        readinessProbe:
          httpGet:
            path: /ready
            port: http_metrics
      `),
    },
    good: {
      caption: 'The name exactly as the container declares it.',
      yaml: pod(`
        ports:
          - name: http-metrics
            containerPort: 9090
        readinessProbe:
          httpGet:
            path: /ready
            port: http-metrics
      `),
    },
  },

  P07: {
    name: 'Scheme is not HTTP or HTTPS',
    means: `\`httpGet.scheme\` must be exactly \`HTTP\` or \`HTTPS\`, in capitals. Leaving it out means \`HTTP\`. A quick fix corrects the case.`,
    why: `The API server refuses the object: \`spec.containers[0].livenessProbe.httpGet.scheme: Unsupported value: "https": supported values: "HTTP", "HTTPS"\`.`,
    bad: {
      caption: 'Lower case.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8443
            scheme: https
      `),
    },
    good: {
      caption: 'Upper case. (The kubelet does not verify the certificate, so a self-signed one is fine.)',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8443
            scheme: HTTPS
      `),
    },
  },

  P08: {
    name: 'Header name is not valid',
    means: `An \`httpHeaders\` name with a character other than a letter, a digit or \`-\`: an underscore, a space, a colon (\`Host:\`), or an empty name. Header values may be anything, and the same name may appear twice.`,
    why: `The API server refuses the object, once per bad name, at the list rather than the item: \`spec.containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "X_Probe_Source": a valid HTTP header must consist of alphanumeric characters or '-' …\`.`,
    bad: {
      caption: 'Underscores in a header name.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
            httpHeaders:
              - name: X_Probe_Source
                value: kubelet
      `),
    },
    good: {
      caption: 'Hyphens instead.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
            httpHeaders:
              - name: X-Probe-Source
                value: kubelet
      `),
    },
  },
};
