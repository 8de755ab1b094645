/**
 * `probe-lens COMMAND --help`: each command's own usage, on stdout, exit 0. The options are
 * those the command's parser takes; the overview for all commands is `USAGE`.
 */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  check: `Usage: probe-lens check FILE... | - [options]

Validates the probes of every pod spec in the manifests: the API server's rules, what the
kubelet will do at run time, and timing (startup budget, when liveness kills).

Options:
  --format text|json|sarif       text for people (default), json or SARIF for machines
  --disable ID,...               rules not to run (e.g. L12,L13)
  --kubernetes-version 1.33      the cluster's version: gates fields and defaults
  --expected-startup 60s         how long the app takes to start: timing rules compare with it

Exit 0: no errors; 1: errors found; 2: bad usage or unreadable input.`,

  probe: `Usage: probe-lens probe --spec JSON|@file [options]

Runs one probe once, as the kubelet would, and prints {result, output, error, durationMs}.

Options:
  --spec JSON|@file              the probe object: {"httpGet":{"path":"/healthz","port":8080}}
  --container JSON|@file         the container (name, ports, env): named ports and $(VAR) resolve
  --host H                       where the pod IP points (default 127.0.0.1)
  --type liveness|readiness|startup   which probe it is (default readiness)
  --kubernetes-version 1.33      the User-Agent's version`,

  simulate: `Usage: probe-lens simulate FILE [options]

Plays the manifest's pods on a virtual clock with the kubelet's decisions, against a scenario of
how the app behaves (containers.NAME.readyAfter, failAfter, exitAfter, latency, probes).

Options:
  --scenario FILE                the app's behaviour (default: every probe succeeds)
  --for 10m                      virtual time to play (default 10m)
  --seed N                       for the kubelet's start-up jitter
  --format text|jsonl|html       events for people, machines, or one self-contained page
  --kubernetes-version 1.33`,

  run: `Usage: probe-lens run FILE [--target local|cluster] [options]

Probes your app with the kubelet's timing and decisions, until --for or Ctrl-C.

--target local (default): your app on this machine; the pod IP becomes --host.
  --port CONTAINER:LOCAL         reach a container port on another local port (repeatable)
  --host H                       where the pod IP points (default 127.0.0.1)
  --allow-host H                 let probes reach H besides the loopback (repeatable)
  --allow-exec                   let exec probes run their commands on this machine

--target cluster: your pods, through the API server (kubectl proxy, your kubeconfig): each
manifest pod's cluster pod is watched live (restarts, rollouts); HTTP, TCP and gRPC probes go
through a port-forward of their own, exec probes through the API's exec. The cluster's kubelet
owns the containers: where ours would restart one, the output predicts it and then says
whether the cluster did. The kubelet's own verdicts and events are shown beside ours.
  --context C                    the kubeconfig context (default: the current one)
  --namespace N, -n N            for manifests without metadata.namespace (default: the context's)
  --all-pods                     probe every pod of a workload, not one (a Ready one first)
  --kubectl PATH                 the kubectl to run (default: kubectl on PATH)
  --allow-exec                   let exec probes run their commands in your containers

Both:
  --for 60s                      stop after this long (default: until Ctrl-C)
  --format text|jsonl|html       live text, one event per line, or one self-contained page
  --kubernetes-version 1.33      the User-Agent's version (cluster: the cluster's, by default)`,

  rules: `Usage: probe-lens rules [--format text|markdown|json]

Lists every rule: its id, severity, what it checks and why.`,
};
