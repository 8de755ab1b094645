import { manifest, pod } from './manifests';
import type { RuleDoc } from './types';

/** Y01–Y04: the file as a whole. */
export const YAML_DOCS: Readonly<Record<string, RuleDoc>> = {
  Y01: {
    name: 'YAML kubectl cannot read',
    means: `The document is not valid YAML — usually a line indented one space too far or too short, a tab, or an unclosed \`{\` or \`[\`. Probe Lens reports the first such error and checks nothing else in that document, because what follows the error is not the structure you meant.

As a **warning**, the same rule reports a key written twice in one mapping (two \`periodSeconds\` in a probe): the document is still checked, with the last value.`,
    why: `\`kubectl apply\` converts each document to JSON before sending it; a document that is not valid YAML fails there (\`error converting YAML to JSON: yaml: line 12: …\`) and nothing of the file reaches the API server.

With a repeated key, kubectl keeps only the last value and drops the earlier ones without a word, so the probe may run with a value you did not mean; kustomize and Flux refuse such a file outright.`,
    bad: {
      caption: '`port` is indented one space less than `path`, so it no longer belongs to `httpGet`.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
           port: 8080
      `),
    },
    good: {
      caption: 'Both keys of `httpGet` at the same column.',
      yaml: pod(`
        livenessProbe:
          httpGet:
            path: /healthz
            port: 8080
      `),
    },
  },

  Y02: {
    name: 'A size limit stopped the check',
    means: `Probe Lens stopped reading this document, or the rest of the file, at a limit: a file over 8 MB, more than 10 000 documents, nesting deeper than 64 levels, or more than 200 000 nodes once YAML aliases and \`<<\` merge keys are expanded (4 million for the whole file). What comes after that point was not checked, so a clean result there means nothing.

A few lines of aliases that multiply each other (a "billion laughs") reach the node limit; real manifests stay far below every limit.`,
    why: `The limits keep a hostile or accidental file from freezing the editor or the command line; they are far above any real manifest. kubectl guards against the same thing: its YAML reader refuses a document with excessive aliasing (\`yaml: document contains excessive aliasing\`), and the API server refuses a request over 3 MB.`,
    bad: {
      caption: 'Each entry merges the one before ten times: a million nodes from seven lines.',
      yaml: pod(`
        env:
          - &e0 {name: LEVEL, value: "0"}
          - &e1 {<<: [*e0, *e0, *e0, *e0, *e0, *e0, *e0, *e0, *e0, *e0]}
          - &e2 {<<: [*e1, *e1, *e1, *e1, *e1, *e1, *e1, *e1, *e1, *e1]}
          - &e3 {<<: [*e2, *e2, *e2, *e2, *e2, *e2, *e2, *e2, *e2, *e2]}
          - &e4 {<<: [*e3, *e3, *e3, *e3, *e3, *e3, *e3, *e3, *e3, *e3]}
          - &e5 {<<: [*e4, *e4, *e4, *e4, *e4, *e4, *e4, *e4, *e4, *e4]}
          - {<<: [*e5, *e5, *e5, *e5, *e5, *e5, *e5, *e5, *e5, *e5]}
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
      `),
    },
    good: {
      caption: 'Plain values: the whole document is read and checked.',
      yaml: pod(`
        env:
          - {name: LEVEL, value: "0"}
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
      `),
    },
  },

  Y03: {
    name: 'Templated document not checked',
    means: `The document is a template — Helm or Go templates (\`{{ }}\`), Jinja (\`{% %}\`) or an \`envsubst\` placeholder (\`\${PORT}\`) — not a manifest. Probe Lens does not guess what it renders to, and checks nothing in it.`,
    why: `Only the rendered output reaches the API server and the kubelet, and its probes may be anything the values make of them. Render it (\`helm template my-release ./chart\`, \`envsubst < pod.yaml\`) and check the output: \`helm template … | probe-lens check -\`.`,
    bad: {
      caption: 'A Helm template: the port comes from the chart\u2019s values.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: {{ .Values.service.port }}
      `),
    },
    good: {
      caption: 'The rendered manifest is checked like any other.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  Y04: {
    name: 'Probes run by another component',
    means: `A Knative Service (\`serving.knative.dev\`) with probes: Probe Lens does not check them, because Knative, not the kubelet, decides what they do.`,
    why: `Knative rewrites the template before it becomes a pod: its queue-proxy sidecar runs the readiness probe itself, polling far more often than \`periodSeconds\` says, and Knative's own webhook validates the template, with rules of its own (a port may be left out, for example). The API server's and the kubelet's rules that Probe Lens reproduces do not describe what happens.`,
    bad: {
      caption: 'A Knative Service with a readiness probe.',
      yaml: manifest(`
        apiVersion: serving.knative.dev/v1
        kind: Service
        metadata:
          name: hello
        spec:
          template:
            spec:
              containers:
                - image: example/hello:1.0
                  readinessProbe:
                    httpGet:
                      path: /ready
      `),
    },
    good: {
      caption: 'The same app as a Deployment: its probes are the kubelet\u2019s, and checked.',
      yaml: manifest(`
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: hello
        spec:
          selector:
            matchLabels: {app: hello}
          template:
            metadata:
              labels: {app: hello}
            spec:
              containers:
                - name: hello
                  image: example/hello:1.0
                  ports:
                    - containerPort: 8080
                  readinessProbe:
                    httpGet:
                      path: /ready
                      port: 8080
      `),
    },
  },
};
