import { pod } from './manifests';
import type { RuleDoc } from './types';

/** L01–L09: where a probe connects, as the kubelet resolves it. */
export const PORT_DOCS: Readonly<Record<string, RuleDoc>> = {
  L01: {
    name: 'Named port not declared',
    means: `The probe names a port (\`port: http\`) that the container's own \`ports\` list does not declare. A port declared by another container of the pod, or by a Service, does not count.`,
    why: `The API server accepts this. The kubelet looks the name up among the probed container's ports only; when it is not there, every attempt ends in an error, and the kubelet drops errors without counting them as failures:

- a readiness probe never succeeds: the container never becomes Ready and gets no traffic;
- a startup probe never succeeds: the container never counts as started, liveness and readiness never begin, and nothing restarts it;
- a liveness probe never fails: it never restarts the container, whatever state the app is in.

The only trace is an \`Unhealthy\` event, \`… probe errored …\`, on every attempt.`,
    bad: {
      caption: 'The probe uses the name `http`, the container never declares it.',
      yaml: pod(`
        ports:
          - containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: http
      `),
    },
    good: {
      caption: 'The port declared with that name.',
      yaml: pod(`
        ports:
          - name: http
            containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: http
      `),
    },
  },

  L02: {
    name: 'Named port is UDP or SCTP',
    means: `The probe names a port that the container declares with \`protocol: UDP\` or \`SCTP\`. HTTP, TCP and gRPC probes always use TCP.`,
    why: `The kubelet's lookup matches the name and ignores the protocol, so it finds the port number and then connects to it over TCP. If nothing listens on that TCP port, every attempt fails: a liveness probe restarts the container over and over, a readiness probe keeps it out of its Services.`,
    bad: {
      caption: 'A StatsD server probed on the UDP port it receives metrics on.',
      yaml: pod(`
        ports:
          - name: statsd
            containerPort: 8125
            protocol: UDP
          - name: admin
            containerPort: 8126
        livenessProbe:
          tcpSocket:
            port: statsd
      `),
    },
    good: {
      caption: 'Its TCP admin port.',
      yaml: pod(`
        ports:
          - name: statsd
            containerPort: 8125
            protocol: UDP
          - name: admin
            containerPort: 8126
        livenessProbe:
          tcpSocket:
            port: admin
      `),
    },
  },

  L03: {
    name: 'Probe port not among declared ports',
    means: `The probe uses a port number that the container's \`ports\` list does not have, while the list declares others. This works — declaring ports is only documentation for probes — but it is often a typo or a port that has since changed.`,
    why: `The kubelet probes the number as written, on the pod's IP. If the app does not listen there, a liveness probe restarts the container over and over and a readiness probe keeps it out of its Services.`,
    bad: {
      caption: 'The container declares 8080, the probe goes to 8081.',
      yaml: pod(`
        ports:
          - containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: 8081
      `),
    },
    good: {
      caption: 'The declared port.',
      yaml: pod(`
        ports:
          - containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  L04: {
    name: 'Quoted port number',
    means: `A port written as a number in quotes (\`port: "8080"\`). Quoted, it is a string; a string port is a port name, and a name needs a letter. A quick fix unquotes it.`,
    why: `The API server refuses the object (P06 reports the error): \`spec.containers[0].readinessProbe.httpGet.port: Invalid value: "8080": must contain at least one letter (a-z)\`. This note explains where the error comes from.`,
    bad: {
      caption: 'The port in quotes.',
      alsoTriggers: ['P06'],
      yaml: pod(`
        ports:
          - containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: "8080"
      `),
    },
    good: {
      caption: 'A number.',
      yaml: pod(`
        ports:
          - containerPort: 8080
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
      `),
    },
  },

  L05: {
    name: 'gRPC port given as a name',
    means: `A gRPC probe with a port name (\`port: grpc\`) or a quoted number. Unlike \`httpGet\` and \`tcpSocket\`, \`grpc.port\` takes only a number. When the container declares a port by that name, a quick fix puts in its number.`,
    why: `The API server cannot decode the object and refuses it (D02 reports the error): \`json: cannot unmarshal string into Go struct field GRPCAction.spec.containers.livenessProbe.grpc.port of type int32\`.`,
    bad: {
      caption: 'The port by name.',
      alsoTriggers: ['D02'],
      yaml: pod(`
        ports:
          - name: grpc
            containerPort: 9090
        livenessProbe:
          grpc:
            port: grpc
      `),
    },
    good: {
      caption: 'The port by number.',
      yaml: pod(`
        ports:
          - name: grpc
            containerPort: 9090
        livenessProbe:
          grpc:
            port: 9090
      `),
    },
  },

  L06: {
    name: 'Probe port is a hostPort',
    means: `The probe uses a port number that the container declares as a \`hostPort\` (the port opened on the node), not as a \`containerPort\`.`,
    why: `The kubelet probes the pod's IP on the number you give, i.e. the container's side. The host port maps to a different container port, so the probe reaches a port the app does not listen on: a liveness probe restarts the container over and over, a readiness probe keeps it out of its Services.`,
    bad: {
      caption: 'The node\u2019s port 80 maps to the container\u2019s 8080; the probe asks for 80 on the pod.',
      yaml: pod(`
        ports:
          - containerPort: 8080
            hostPort: 80
        livenessProbe:
          tcpSocket:
            port: 80
      `),
    },
    good: {
      caption: 'The container port.',
      yaml: pod(`
        ports:
          - containerPort: 8080
            hostPort: 80
        livenessProbe:
          tcpSocket:
            port: 8080
      `),
    },
  },

  L07: {
    name: 'Probe host is set',
    means: `\`httpGet.host\` or \`tcpSocket.host\` is set. The probe then goes to that host instead of the pod: \`localhost\` is the node, a fixed IP is some machine, and a Service name is usually not resolvable where the probe is made.`,
    why: `The kubelet runs on the node and connects from there, not from inside the pod. \`localhost\` probes the node itself (except for a pod with \`hostNetwork: true\`, where it is the same). A name is looked up with the node's DNS, which usually does not know cluster names, and even a reachable Service would answer for other pods, not this one. If the app routes requests by host name, leave \`host\` empty and send a \`Host\` header instead.`,
    bad: {
      caption: 'The Service\u2019s name as the host.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            host: web-service
            path: /ready
            port: 8080
      `),
    },
    good: {
      caption: 'No host (the pod\u2019s IP), the name in a `Host` header.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
            httpHeaders:
              - name: Host
                value: web.example.com
      `),
    },
  },

  L08: {
    name: 'Scheme does not match the port',
    means: `\`scheme: HTTPS\` on a port named like a plain HTTP port (\`http\`, \`http-…\`), or \`HTTP\` (the default) on a port named \`https\`, \`…tls…\`, \`…ssl…\` or numbered 443.`,
    why: `The kubelet speaks the scheme you set. HTTP to a TLS port gets a failed handshake or a 400, TLS to a plain port fails its handshake: every attempt fails, so a liveness probe restarts the container over and over and a readiness probe keeps it out of its Services. Either the scheme or the port's name is wrong.`,
    bad: {
      caption: 'Plain HTTP to the port named `https`.',
      yaml: pod(`
        ports:
          - name: https
            containerPort: 8443
        livenessProbe:
          httpGet:
            path: /healthz
            port: https
      `),
    },
    good: {
      caption: '`scheme: HTTPS` (the kubelet does not verify the certificate).',
      yaml: pod(`
        ports:
          - name: https
            containerPort: 8443
        livenessProbe:
          httpGet:
            path: /healthz
            port: https
            scheme: HTTPS
      `),
    },
  },

  L09: {
    name: 'Header given twice',
    means: `Two \`Host\` headers, or two header names that differ only by case (\`X-Token\` and \`x-token\`). The API server allows both.`,
    why: `The kubelet canonicalises header names, so both become one header. Of two \`Host\` headers only the first is used; other headers are sent with both values under one name, which an app reading a single value may not expect.`,
    bad: {
      caption: 'The same header twice, in different case.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
            httpHeaders:
              - name: X-Probe-Token
                value: abc
              - name: x-probe-token
                value: def
      `),
    },
    good: {
      caption: 'Once.',
      yaml: pod(`
        readinessProbe:
          httpGet:
            path: /ready
            port: 8080
            httpHeaders:
              - name: X-Probe-Token
                value: abc
      `),
    },
  },
};
