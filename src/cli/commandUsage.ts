/**
 * `probe-lens COMMAND --help`: each command's own usage, on stdout, exit 0. The options are
 * those the command's parser takes; the overview for all commands is `USAGE`.
 */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  check: `Usage: probe-lens check PATH... | - [options]

Validates the probes of every pod spec in the manifests: the API server's rules, what the
kubelet will do at run time, and timing (startup budget, when liveness kills).

PATH is a manifest, a Helm chart (its folder, Chart.yaml, a values*.yaml or a template in it), a
kustomize overlay (its folder or kustomization.yaml), or a folder holding charts and overlays.
Charts are rendered with helm template and overlays built with kubectl kustomize, offline; each
finding is reported where it is fixed: the values key, the template or resource line, the patch.

Options:
  --format text|json|sarif       text for people (default), json or SARIF for machines
  --disable ID,...               rules not to run (e.g. L12,L13)
  --kubernetes-version 1.33      the cluster's version: gates fields and defaults (and helm's
                                 --kube-version, so templates see the same version)
  --expected-startup 60s         how long the app takes to start: timing rules compare with it

Charts:
  -f, --values FILE              a values file after the chart's values.yaml (repeatable; later wins)
  --set K=V, --set-string K=V    values as helm takes them (repeatable)
  --api-versions V               what .Capabilities.APIVersions has (repeatable, or a,b)
  --release NAME                 the release name (default release-name)
  -n, --namespace NS             the release namespace
  --helm PATH                    the helm to render with (default: helm on PATH; Helm 3 or 4)

Overlays:
  --kustomize PATH               kubectl (kubectl kustomize) or a kustomize binary (kustomize
                                 build); default: kubectl on PATH

Exit 0: no errors; 1: errors found; 2: bad usage, unreadable input, or a chart or overlay that
did not render (the others are still checked; the failure is on stderr as FILE:LINE: message).`,

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
  explain: `Usage: probe-lens explain RECORDING.jsonl [options]

Says why each container of a recording (probe-lens simulate|run FILE --format jsonl, or a timeline
export) is in its state at a moment, in the kubelet's terms and with its numbers, then the chain of
causes, each with the lines of the file it was read from.

Options:
  --at T                         the moment: seconds (90), a duration (90s, 10m) or t+00:01:30; for a
                                 wall-clock recording also 12:03:40 (local time) or an ISO time
                                 (default: the end of the recording)
  --pod P                        only this pod's containers
  --container C                  only this container (in every pod, or in --pod)
  --format text|json             for people (default), or {schemaVersion, at, containers: [...]}

Exit 0; 2: bad usage, not a recording, an unknown pod or container, a moment outside it.`,
  scenario: `Usage: probe-lens scenario RECORDING.jsonl | - > app.scenario.yaml

How the app behaved in a recording (probe-lens simulate|run FILE --format jsonl, or a timeline
export), as a scenario for 'probe-lens simulate --scenario': per container, in seconds since it
started, when it first answered (readyAfter), hung (failAfter) or exited (exitAfter), how long it
took to answer (latency), and each probe's outcomes where those do not already say them. A local
run's restarts were only reported: its times run from the first start. What a scenario cannot say
is written as # comments, and on stderr.

Exit 0; 2: bad usage or unreadable input (not a recording, or one without a single event).`,

  replay: `Usage: probe-lens replay RECORDING.jsonl --manifest FILE [options]

What another configuration would have done with the app a recording (probe-lens simulate|run
FILE --format jsonl, or a timeline export) saw: the recording becomes a scenario (as 'probe-lens
scenario' writes it), the manifest is simulated against it for as long as the recording lasts, and
both are compared per pod and container — restarts, time to Ready, time not Ready, kills — before
(the recording) → after (the manifest).

Options:
  --manifest FILE                the configuration to replay (an edited copy of the manifest)
  --format text|json             a table for people (default), or JSON for machines
  --kubernetes-version 1.33      the cluster's version: gates fields and defaults

Exit 0; 2: bad usage or unreadable input (not a recording, a manifest that does not read).`,
  recommend: `Usage: probe-lens recommend FILE --from RECORDING.jsonl [options]

Measures each probe of a recording (latency p50/p99/max, time from container start to the first
success, failure bursts once started) and recommends values for FILE's probes: timeoutSeconds
with headroom over the p99, a startup budget that covers the slowest start-up (or a startupProbe
to add, derived from liveness), a liveness failureThreshold that rides out the longest failure
burst. Each value is applied and checked with the rules before it is offered.

Options:
  --from RECORDING.jsonl         probe-lens simulate|run FILE --format jsonl, or a timeline export
  --format patch|json            patch (default): the reasoning as # lines, then a unified diff
                                 for 'git apply' or 'patch -p1'; json: measurements,
                                 recommendations, notEnoughData, dropped
  --kubernetes-version 1.33      the cluster's version: the rules the values are checked with

Exit 0 with recommendations or none (none: said on stderr); 2: bad usage or unreadable input.`,
};
